/**
 * Language hint (German or English) from stop-word frequencies in the first 20 000
 * characters. Returns undefined when neither language is clearly ahead.
 */

const DE = new Set(
  'der die das und ist nicht ein eine einer mit für auf dem den des von zu sich auch als wird werden sind bei oder aus wir ich sie es im nach über noch wie aber dass kann'.split(
    ' ',
  ),
);
const EN = new Set(
  'the and is are not a an of to in that for on with as by this be it from or at was were have has which you we will can but'.split(
    ' ',
  ),
);

export function detectLanguage(text: string): 'de' | 'en' | undefined {
  const sample = text.slice(0, 20_000).toLowerCase();
  const words = sample.match(/[a-zäöüß]+/g);
  if (!words || words.length < 5) return undefined;
  let de = 0;
  let en = 0;
  for (const w of words) {
    if (DE.has(w)) de++;
    if (EN.has(w)) en++;
  }
  if (/[äöüß]/.test(sample)) de += 2;
  if (de + en < 2) return undefined;
  if (de > en * 1.5) return 'de';
  if (en > de * 1.5) return 'en';
  return undefined;
}
