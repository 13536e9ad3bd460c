// Package pdf reads the text of PDF files that anybody may have written, hostile ones
// included: the glyphs each page draws, with their text, position, width and size, for the
// knowledge feature to lay out as lines, paragraphs and headings. It is Betty's own reader,
// written from ISO 32000-1 (PDF 1.7) and ISO 32000-2 (PDF 2.0).
//
// What it reads: classic cross-reference tables and cross-reference streams, hybrid files,
// incremental updates (the newest entry of an object wins), object streams; a file whose
// cross-reference table is missing or wrong is repaired by finding its objects ("12 0 obj")
// as readers do. Streams decode through FlateDecode (with PNG and TIFF predictors),
// LZWDecode, ASCII85Decode, ASCIIHexDecode and RunLengthDecode, in chains; image data is
// not text and is skipped. Files encrypted by the standard security handler open when their
// user password is empty (an owner password only): RC4 of 40 to 128 bits, AES-128 and
// AES-256. Text comes from the content streams' text operators, through form XObjects, with
// the fonts' encodings: simple fonts' base encodings and /Differences, a Type 1 program's
// built-in encoding, composite fonts' CMaps (Identity, the Unicode ones, and the code
// lengths of the others), an embedded TrueType program's cmap read backwards when a
// composite font has nothing else, and ToUnicode CMaps first of all.
//
// What it does not do: no OCR (a page that is only an image has no text); no reading order
// beyond the content's own (columns are read as the page draws them); vertical writing is
// read as if it were horizontal, one line a column; a composite font without a ToUnicode
// CMap gives no text unless its CMap is a Unicode one or its program is TrueType (the
// predefined CJK tables, and CFF programs' charsets, are not read); marked content
// (/ActualText) is ignored; annotations are not read.
//
// Hostile files: every loop ticks a guard that stops the work once the context ends; the
// page tree, the /Prev chain, object streams and their /Extends, form XObjects and chains
// of references are followed with a record of where they have been, so that a cycle is a
// damaged file, never a loop; nesting is bounded wherever the parser recurses; and what
// streams decode to, tokens, arrays and dictionaries, operands, object numbers, CMap
// mappings and fonts per page all have budgets (guard.go). A file past one is damaged
// (ErrDamaged). A panic never leaves the package: it is a damaged file too.
package pdf
