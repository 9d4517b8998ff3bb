// The words a program's death by a fatal signal is told in (bash's strsignal words, in the user's locale, and libstdc++'s
// terminate line): one module that the error collector (errors.ts) and the line normaliser (normalise.ts) both read, so
// neither imports the other.

/**
 * strsignal's words as bash prints them in the user's locale (glibc's translations of `Segmentation fault` and
 * `Aborted`: de, fr, es, it, pt_BR, ja, zh_CN, ru), each the English signal it names.
 */
export const LOCALISED_SIGNALS: Readonly<Record<string, string>> = {
  Speicherzugriffsfehler: 'Segmentation fault',
  'Erreur de segmentation': 'Segmentation fault',
  'Violación de segmento': 'Segmentation fault',
  'Errore di segmentazione': 'Segmentation fault',
  'Falha de segmentação': 'Segmentation fault',
  セグメンテーション違反です: 'Segmentation fault',
  段错误: 'Segmentation fault',
  'Ошибка сегментирования': 'Segmentation fault',
  Abgebrochen: 'Aborted',
  Abandon: 'Aborted',
  Abortado: 'Aborted',
  中止: 'Aborted',
  已放弃: 'Aborted',
};
/** The shell's words for the fatal signals, English and localised, as one alternation. */
export const FATAL_WORDS = `Aborted|Segmentation fault|Bus error|Illegal instruction|Floating point exception|Trace/breakpoint trap|${Object.keys(LOCALISED_SIGNALS).join('|')}`;
/**
 * A program's death said at the end of an author's sentence (`It fails with Segmentation fault`, `Same result as before:
 * terminate called after throwing an instance of 'std::bad_alloc'`): the shell's words for the signal, or libstdc++'s
 * terminate line, from a space to the line's end. The index where that line starts; -1 when the line ends otherwise.
 */
export function deathTail(text: string): number {
  if (text.includes('terminate called')) {
    const m = TERMINATE_TAIL.exec(text);
    return m ? m.index + 1 : -1;
  }
  // The signal's words and their note end the line: only its last SIGNAL_TAIL_MAX characters are searched.
  const from = Math.max(0, text.length - SIGNAL_TAIL_MAX);
  const m = SIGNAL_TAIL.exec(from ? text.slice(from) : text);
  return m ? from + m.index + 1 : -1;
}
const TERMINATE_TAIL = / terminate called after throwing an instance of '[^']{1,200}'.{0,200}$/;
const SIGNAL_TAIL = new RegExp(` (?:${FATAL_WORDS})(?: *\\([^()]{1,60}\\))?$`);
/** A space, the longest signal's words (localised ones too) and a note of 60: the tail SIGNAL_TAIL can match. */
const SIGNAL_TAIL_MAX = 128;
