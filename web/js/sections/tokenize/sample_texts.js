// Section 1's sample texts: one short story in six languages and a few lines of Python, for the table of tokens per
// word. A word is a run of characters between spaces (line breaks and tabs count as spaces), punctuation included;
// Chinese writes no spaces between words, so its row counts characters (every one but spaces, punctuation included).

export const SAMPLES = [
  {
    key: 'en',
    label: 'English',
    text: 'The dog bit the man at the market this morning. Then the man bit the dog back, and the whole town laughed about it for weeks.',
  },
  {
    key: 'de',
    label: 'German',
    text: 'Heute Morgen hat der Hund auf dem Markt den Mann gebissen. Dann biss der Mann den Hund zurück, und die ganze Stadt lachte wochenlang darüber.',
  },
  {
    key: 'ru',
    label: 'Russian',
    text: 'Сегодня утром на рынке собака укусила человека. Потом человек укусил собаку в ответ, и весь город смеялся над этим несколько недель.',
  },
  {
    key: 'zh',
    label: 'Chinese',
    text: '今天早上，狗在市场上咬了那个人。后来那个人也咬了狗一口，全城的人为这件事笑了好几个星期。',
    perCharacter: true,
  },
  {
    key: 'ar',
    label: 'Arabic',
    text: 'عض الكلب الرجل في السوق هذا الصباح. ثم عض الرجل الكلب، وظلت المدينة كلها تضحك على ذلك لأسابيع.',
  },
  {
    key: 'hi',
    label: 'Hindi',
    text: 'आज सुबह बाज़ार में कुत्ते ने आदमी को काट लिया। फिर आदमी ने भी कुत्ते को काट लिया, और पूरा शहर हफ़्तों तक इस पर हँसता रहा।',
  },
  {
    key: 'py',
    label: 'Python code',
    text: 'def bite(biter, bitten):\n    """Who bit whom, in the order the story tells it."""\n    return f"{biter} bites {bitten}"\n\nprint(bite("dog", "man"))\n',
  },
];

/** How many words a sample has (characters, for Chinese): what its tokens are counted per. */
export function unitsOf(sample) {
  return sample.perCharacter
    ? Array.from(sample.text).filter((c) => !/\s/u.test(c)).length
    : sample.text.split(/\s+/u).filter(Boolean).length;
}
