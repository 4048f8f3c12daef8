/** German messages of the pages (the default language); the same keys as en.ts. */
import { adminDe } from './admin.de.ts';
import { adminConnectorsDe } from './admin-connectors.de.ts';
import { analyticsDe } from './analytics.de.ts';
import { chatDe } from './chat.de.ts';
import type { Messages } from './en.ts';
import { searchDe } from './search.de.ts';

const common = {
  'app.name': 'Enterprise Search',
  'app.skip': 'Zum Inhalt springen',
  'nav.label': 'Hauptnavigation',
  'nav.search': 'Suche',
  'nav.chat': 'Chat',
  'nav.admin': 'Verwaltung',
  'nav.signout': 'Abmelden',
  'nav.signedInAs': 'Angemeldet als {email}',
  'lang.label': 'Sprache',
  'lang.de': 'Deutsch',
  'lang.en': 'English',
  'footer.text': 'Selbst betriebene Unternehmenssuche',

  'signin.title': 'Anmelden',
  'signin.email': 'E-Mail',
  'signin.password': 'Passwort',
  'signin.submit': 'Anmelden',
  'signin.wrong': 'E-Mail oder Passwort ist falsch.',
  'signin.throttled': 'Zu viele Fehlversuche. Bitte in {minutes} Minuten erneut versuchen.',
  'signin.csrf': 'Das Formular ist abgelaufen. Bitte erneut versuchen.',
  'signin.help': 'Noch kein Passwort? Bitten Sie eine Administratorin oder einen Administrator um einen Anmeldelink.',
  'signin.signedOut': 'Sie wurden abgemeldet.',
  'signin.expired': 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
  'link.title': 'Passwort festlegen',
  'link.intro': 'Legen Sie ein Passwort für {email} fest. Danach sind Sie angemeldet.',
  'link.password': 'Neues Passwort',
  'link.confirm': 'Passwort wiederholen',
  'link.rules': 'Mindestens 10 Zeichen. Eine lange Passphrase ist am besten.',
  'link.submit': 'Passwort speichern und anmelden',
  'link.mismatch': 'Die beiden Passwörter stimmen nicht überein.',
  'link.invalid':
    'Dieser Anmeldelink ist ungültig: Er wurde schon benutzt, ist abgelaufen oder hat nie existiert. Bitten Sie um einen neuen.',
  'link.tooShort': 'Das Passwort muss mindestens 10 Zeichen haben.',

  'sso.button': 'Anmelden mit {label}',
  'sso.or': 'oder mit E-Mail und Passwort',
  'sso.state_invalid': 'Die Anmeldung hat zu lange gedauert oder wurde schon benutzt. Bitte neu beginnen.',
  'sso.provider_error': 'Der Anmeldedienst hat die Anmeldung abgelehnt.',
  'sso.provider_unreachable': 'Der Anmeldedienst ist nicht erreichbar. Bitte später erneut versuchen.',
  'sso.token_invalid': 'Der Anmeldedienst hat mit einem Token geantwortet, dem nicht vertraut werden kann.',
  'sso.email_missing': 'Der Anmeldedienst hat keine E-Mail-Adresse übermittelt.',
  'sso.email_unverified': 'Ihre E-Mail-Adresse ist beim Anmeldedienst nicht bestätigt.',
  'sso.domain_not_allowed': 'Konten dieser E-Mail-Domain dürfen sich hier nicht anmelden.',
  'signin.passwordsOff': 'Die Anmeldung mit Passwort ist hier ausgeschaltet.',

  'error.title': 'Etwas ist schiefgegangen',
  'error.notFound': 'Diese Seite gibt es nicht.',
  'error.forbidden':
    'Die Anfrage wurde abgelehnt (CSRF-Prüfung fehlgeschlagen). Laden Sie die Seite neu und versuchen Sie es erneut.',
  'error.back': 'Zurück zur Suche',
};

export const de: Messages = { ...common, ...searchDe, ...chatDe, ...adminDe, ...adminConnectorsDe, ...analyticsDe };
