/**
 * A deterministic dataset CSV with every way a record's bytes can differ from its text: a BOM, CRLF
 * and LF line ends mixed, quoted cells holding LF and CRLF, doubled quotes, multi-byte UTF-8, blank
 * lines and a row of empty cells (both skipped), conversations whose turns stand apart and out of
 * order, deep research, a metadata column, and no newline after the last row. `rows` questions
 * (a multiple of 20, or under 20, leaves no conversation without its turn 1).
 */
export function trickyCsv(rows: number): string {
  const header = 'id,question,expected_documents,category,conversation,turn,deep_research,notes';
  const lines: string[] = [];
  for (let i = 0; i < rows; i += 1) {
    const end = i % 3 === 0 ? '\r\n' : '\n';
    const conversation = i % 10 === 0 && i > 0 && i < rows - 20 ? `c${Math.floor(i / 20)}` : '';
    // Conversation c<k>: row 20k is its turn 2, row 20k + 10 (later in the file) its turn 1.
    const turn = conversation === '' ? '' : i % 20 === 0 ? '2' : '1';
    const id = i % 7 === 0 ? '' : `q${i}`; // an empty id: the row number (or conversation#turn)
    const question =
      i % 5 === 0
        ? `"Line one of ${i},\r\nline two with ""quotes"" and é ü 漢字\nline three"`
        : `Question ${i} — naïve café?`;
    const category = i % 4 === 0 ? '' : `cat${i % 3}`;
    const deep = i % 11 === 0 ? 'true' : i % 13 === 0 ? 'false' : '';
    const notes = i % 6 === 0 ? `"note, with comma ${i}"` : `n${i}`;
    const cells = [
      id,
      question,
      i % 2 === 0 ? `doc-${i}|ref-${i % 9}` : '',
      category,
      conversation,
      turn,
      deep,
      notes,
    ].join(',');
    lines.push(`${cells}${end}`);
    if (i % 17 === 0) lines.push(i % 34 === 0 ? '\r\n' : '\n'); // blank lines
    if (i % 23 === 0) lines.push(',,,,,,,\n'); // a row of empty cells
  }
  const text = `\uFEFF${header}\r\n${lines.join('')}`;
  return text.replace(/\r?\n$/, ''); // no newline after the last row
}
