/**
 * Compact German base-word lexicon for compound splitting (decompound.ts):
 * common nouns, adjectives and verb stems that occur as parts of compounds,
 * weighted towards office and enterprise vocabulary (HR, finance, IT, law,
 * projects, sales, travel, facilities). Words are lower case; the splitter
 * folds umlauts itself. A word listed here is never split further.
 */
export const GERMAN_LEXICON_TEXT = `
abend abgabe ablauf abnahme absatz abschluss absender abstand abteil abteilung abwesenheit abzug adresse agentur akte
aktie aktion alarm alltag alter amt analyse anbieter anfang anfrage angabe angebot angestellte angst anhang anlage
anleitung anmeldung annahme anpassung anruf ansatz anschluss ansicht ansprache anspruch anstalt antrag antwort anwalt
anwendung anzahl anzeige apotheke apparat arbeit arbeiter arbeitgeber arbeitnehmer archiv arm art artikel arzt aspekt
atem audit aufbau aufgabe aufenthalt auflage aufnahme auftrag aufwand auge ausbildung ausfall ausgabe ausgang auskunft
ausland ausnahme ausschreibung ausschuss aussage ausstattung ausstellung ausweis auswahl auswertung auto automat bahn
bahnhof balken ball band bank bau bauer baum beamte bearbeitung bedarf bedingung befehl beginn begriff behandlung
behörde beitrag bekannte beleg beratung berater bereich bereitschaft berg bericht beruf beschaffung bescheid beschluss
beschreibung beschwerde besitz besprechung bestand bestellung besuch besucher betrag betreff betreuung betrieb bett
beurteilung bewegung bewerber bewerbung bewertung bezahlung bezug bibliothek bild bildschirm bildung bilanz bit blatt
blick block blut boden bogen börse bote brand brief brücke bruder brutto buch buchhaltung buchung budget bühne bund
bündel büro bürger bus chef code computer dach daten datei datum dauer decke denken dialog dienst dienstag dienstleistung
ding direktor dokument donnerstag dorf draht drittel druck drucker durchschnitt ecke ehe eigentum eigentümer einfluss
eingabe eingang einheit einkauf einkommen einladung einnahme einrichtung einsatz einsicht einstellung eintrag eintritt
einwohner einzel eis eisen eltern empfang empfänger ende energie entscheidung entwicklung entwurf erfahrung erfassung
erfolg ergebnis erhöhung erklärung erlaubnis ersatz erstattung ertrag erwartung essen etage etat fach fahrer fahrt fahrzeug
fall familie farbe fehler feier feld fenster ferien fernseher fest feuer figur filiale film finanz finanzen firma fisch
fläche fleisch flug flughafen fluss folge form format formular forschung foto frage frau freigabe freitag freizeit
freund frist frühstück führung funktion furcht fuss garten gast gebäude gebiet gebühr geburt gedanke gefahr gegenstand
gehalt geist geld gelände gemeinde gemeinschaft genehmigung gerät gericht gesamt geschäft geschäftsführer geschichte
gesellschaft gesetz gesicht gespräch gesundheit gewerbe gewicht gewinn glas gleich glück gold grenze grund gründung
grundlage gruppe gut gutachten gutschein gutschrift hafen haft halle hals haltung hand handel handlung handy hardware
haupt haus haushalt heft heim heimat helfer herbst herr herstellung herz hilfe himmel hinweis hochschule hof höhe holz
honorar hotel hund idee industrie info information inhaber inhalt initiative inland insel institut interesse inventar
investition jahr jubiläum jugend kabel kaffee kalender kamera kammer kampf kanal kante kapital karte kasse katalog kauf
käufer kenntnis kennwort kennzahl kern kette kind kirche klage klasse kleid klima knopf koch koffer kollege kommission
kommunikation konferenz konflikt kontakt konto kontrolle konzept konzern kopf kopie körper kosten kraft krankheit kredit
kreis krieg kritik küche kunde kundin kunst kurs kurve kurz lage lager land länge lauf laufwerk leben lehre lehrer
leistung leiter leitung lernen leser leute licht liebe lieferant lieferung liste lizenz lohn lösung luft lust macht mahnung
mail mangel mann mappe marke markt maschine mass massnahme material mauer medien medizin meer mehrwert meinung meister
meldung menge mensch merkmal messe methode miete mieter milch minute mitarbeiter mitglied mittag mitte mittel mittwoch
möbel modell monat montag morgen motor muster mutter nachbar nachfrage nachricht nachweis nacht nahme name natur nebel
netz netzwerk neuheit norm not notiz nummer nutzer nutzung oberfläche objekt ofen öffentlichkeit ordner ordnung
organisation ort paket papier park partei partner pass passwort patient pause person personal pflege pflicht plan
planung platte platz plattform politik polizei portal position post posten praxis preis presse prinzip probe problem
produkt produktion profil programm projekt protokoll prozess prüfung punkt qualität quartal quelle rabatt rad rahmen
rand rang rat rate raum rechner rechnung recht rede regel region register reihe reise rente reparatur rest richter
richtlinie richtung risiko rolle rückgabe rückmeldung rücksprache ruf ruhe sache saal sachbearbeiter samstag satz
schaden schein schicht schiff schild schirm schlüssel schluss schrank schrift schritt schuld schule schüler schutz
schwester see seite sekretariat sendung server service sicherheit sicherung sieg signal sitz sitzung skala software
sohn soll sommer sonntag sorge spalte speicher spiel sprache stab stadt stamm stand standort stelle stellung steuer
stift stil stimme stoff strafe strasse strategie strecke strom struktur stück student studie stufe stunde suche summe
system tabelle tafel tag tagung takt tarif tasche taste team technik teil teilnahme teilnehmer telefon temperatur
termin test text thema ticket tier tisch titel tochter ton tor träger training transport traum treffen trend tür
übergabe übersicht überweisung uhr umfang umfrage umsatz umstellung umwelt umzug unfall universität unterlage
unternehmen unterricht unterschied unterschrift unterstützung untersuchung urlaub ursache urteil vater veranstaltung
verantwortung verband verbindung verbrauch verein verfahren verfügung vergleich verhalten verhältnis verkauf verkäufer
verkehr verlag verlust vermögen vermerk veröffentlichung versand versicherung version verstoss vertrag vertreter
vertretung vertrieb verwaltung verzeichnis vorgang vorgesetzte vorlage vorschlag vorschrift vorstand vortrag
wagen wahl wand ware wärme wasser wechsel weg welt werbung werk werkstatt werkzeug wert wetter wiese wirtschaft
wissen woche wochenende wohnung wort wunsch zahl zahlung zeichen zeit zeitraum zeitung zentrale zentrum zertifikat
ziel zimmer zins zoll zone zug zugang zugriff zulage zusammenarbeit zuschlag zustand zweck
abrechnung abschlag absprache abstimmung änderung angelegenheit ankündigung anmerkung anordnung anschaffung anschrift
anweisung arbeitsplatz aufstellung ausführung ausgaben auslastung aussendienst austausch auszahlung autor beauftragte
begründung beilage bemerkung benachrichtigung benutzer berechnung berechtigung bereitstellung beschäftigte beschäftigung
besetzung bestätigung beteiligung bewilligung bezeichnung dokumentation durchführung einarbeitung einführung
einreichung einschätzung einweisung empfehlung entgelt erinnerung erledigung ermittlung eröffnung erstellung erteilung
erweiterung fachkraft fortbildung freistellung gehaltserhöhung geldbetrag genehmiger gesellschafter gewährleistung
haftung inbetriebnahme instandhaltung kalkulation kennung kündigung lastschrift leitfaden mitteilung nachtrag niederlassung
pauschale personalien planstelle quittung referent regelung reisekosten richtwert rückstellung rückzahlung schulung
sonderurlaub spesen stellvertreter stundung tätigkeit teilzeit überstunde umlage unterkunft verarbeitung vereinbarung
verlängerung vermittlung verordnung verpflegung verrechnung verschlüsselung verteilung verwendung verzögerung vollmacht
voraussetzung vorbereitung vorgabe vorstellung vorteil wartung weiterbildung widerspruch zulassung zusage zuständigkeit
zustimmung zuweisung zuordnung
abfall abgas achse acker ader affe akku aktenordner alarmanlage ampel angel anker anzug apfel arbeitsamt asche
atom bach backe bad bär barriere batterie bauch becher becken beere beet beil bein besen beton beutel biene bier birne
blase blech blei blume bluse bohne boot brett brille brot brust bucht burg butter dampf daumen deich dichter dienstwagen
dose draht drache duft dunst dusche eiche eimer eingang eisenbahn elefant engel ente erde ernte esel fabrik faden
fahne falle fass feder fee fell fels ferse fest fett feuerwehr fieber filter finger flasche flecken fliege flocke flöte
flügel flur flüssigkeit förderung forst fracht freude frucht fuchs funk gabel gang gans gasse gebirge gefängnis
gegend geige gelenk gemüse gepäck gerste geruch gewässer gewitter gipfel gitter glocke gras grab graben greis griff
grippe grube gurke gürtel hafer hagel hahn haken hammer hase haut hecke hefe heizung held helm hemd henne herd heu
hitze hobel honig horn hose hütte insekt jacke jagd kabine käfer kahn kalb kalk kamin kamm kanne kapelle karren kartoffel
käse kater katze keller kerze kessel kiefer kiste klang klee kleber klinge klinik knochen knoten kohle korb korn kragen
kran kranz kraut krebs kreide kreuz krone krug kuchen kugel kuh kühlschrank kupfer lack laden lamm lampe lappen last
laub leder leim leine leiste leiter lied linie loch löffel lupe magen mantel mappe mars maus mehl melodie messer metall
mine mond moor moos mühle mund münze nadel nagel nase nebel nest netz nudel ochse ofen ohr öl onkel orgel palme pfanne
pfeffer pfeife pferd pflanze pflaster pflug pilz pinsel platte pumpe puppe quark rasen rauch regen reifen reis rind
ring rock rohr rose rost rübe rücken ruder sack saft salat salz samen sand sattel säule schaf schale schatten schaum
schere schlange schloss schnee schrank schraube schuh schüssel schwamm seife seil sessel sichel sieb silber socke sofa
sonne spiegel spinne spitze stahl stall stange staub stein stern stiefel stirn strand strauch strumpf stuhl sturm
sumpf suppe tal tank tanne tante tasse tau teich teller teppich tinte topf traube treppe trommel tuch tunnel turm
ufer ventil vogel vorhang waage wachs waffe wald walze wanne watte weide wein weizen wolke wolle wurm wurst wurzel
zahn zange zaun zelt ziege ziegel zucker zunge zweig
dienstreise einzelhandel grosshandel
alt arm blau breit dicht dunkel eigen einfach einzig eng fein fern fest flach frei fremd frisch früh ganz gemein
gesund glatt gross grün gut halb hart hell hoch jung kalt klein knapp krank kurz lang laut leer leicht mittel nah
nass neu offen privat rein reich roh rot rund sauber scharf schnell schwarz schwer selten sicher spät stark still
tief tot treu trocken voll warm weich weiss weit wild
schreib lese lern fahr flug wohn spiel schlaf speise trink koch mess prüf such lauf wasch bade rechen bestell
update marketing home office video ablage übung management vergabe kantine störung voranschlag email web cloud
browser account login backup datenbank feedback meeting workshop support ticket service manager controller
achtung adapter agenda akademie aktivität album anbau anfänger anlauf anreise ansprechpartner anteil antrieb anwender
anwesenheit app architektur argument armut atmosphäre aufsicht aufzug augenblick ausflug aussicht auswirkung autobahn
automatisierung backofen basis bedienung beförderung begleitung behälter belastung beleuchtung benzin beobachtung
berufung besatzung besitzer betreuer bevölkerung bewohner bezirk biologie blitz buchung chance chemie dame dank
darstellung diskussion distanz durchsage ebene ehre eigenschaft einbau eindruck einstieg einwand einzug engagement
entfernung entlastung entsorgung ereignis erfindung erfüllung ergänzung erhaltung erholung erkenntnis erlebnis
ermässigung ernährung erziehung export fabrik fachmann fahrplan fahrrad faktor fehlzeit feiertag fernsehen fertigung
festplatte finanzierung flotte flucht forderung fortschritt frieden führerschein fund garantie geburtstag gedächtnis
gefühl gegenwart geheimnis genuss gerechtigkeit geschenk geschwindigkeit gesetzgebung getränk gewalt gewerkschaft
gewohnheit glaube grafik gruss gymnasium haftpflicht halbjahr haltestelle handwerk handwerker hauptsitz herkunft
hinsicht hintergrund hochzeit hoffnung hunger hygiene import impuls infrastruktur ingenieur innovation integration
interview jahrhundert jahrzehnt justiz kapazität karriere kategorie kaution kennzeichen klausel kleidung kollegin
komfort kompetenz kondition konkurrenz konsequenz kooperation korrektur krankenhaus krankenkasse krise kultur labor
landschaft lastwagen laufzeit lebenslauf lebensmittel lehrling leitbild lieferschein lücke mahlzeit makler mandant
mannschaft medikament mehrheit merkblatt minderheit mitgliedschaft mobilität modul monitor motivation nachfolge
nachhaltigkeit nachlass nachteil nachwuchs netzteil neubau niveau notfall nutzen obst öffnung operation orientierung
paragraf parkplatz patent pension pfleger phase pilot planer praktikum prämie priorität prognose provision prozent
publikum quote rahmenvertrag rathaus reaktion rechenzentrum rechtsanwalt referenz reform regierung reinigung
reklamation rendite reserve ressource rezept rückfrage rückruf rundschreiben sachverhalt saison sammlung satzung
schaltung schätzung scheck schema schnittstelle schulden schwerpunkt sektor sender senkung sortiment sozial spannung
spende sperre sponsor sport stadion standard statistik steckdose stimmung stipendium studium subvention tagesordnung
tausch technologie tendenz theorie tiefe tourismus transparenz treffpunkt umbau umgebung umgang umschlag veränderung
verbesserung verbot verdienst verfassung vergütung verhandlung verletzung vermieter verpackung versorgung verspätung
verständnis verzicht vorbild vorgänger vorrat vorsitz vorwahl währung wachstum wartezeit website wettbewerb widerstand
wirkung wissenschaft wohnort zahnarzt zeitplan zeitschrift zeugnis zufall zukunft zulieferer zusammenhang zuschuss
zustellung zweig
`;
