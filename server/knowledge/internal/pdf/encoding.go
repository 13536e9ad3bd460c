package pdf

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The simple fonts' base encodings (ISO 32000-1, annex D) as the Unicode character of each
// code (0: none), and the glyph names /Differences and font programs use.

var (
	standardEnc, winAnsiEnc, macRomanEnc, pdfDocEnc, symbolEnc, zapfEnc [256]rune
)

func init() {
	for c := rune(0x20); c < 0x7f; c++ {
		standardEnc[c], winAnsiEnc[c], macRomanEnc[c], pdfDocEnc[c] = c, c, c, c
	}
	standardEnc['\''], standardEnc['`'] = '’', '‘'
	fill := func(enc *[256]rune, from int, chars string) {
		c := from
		for _, r := range chars {
			if r != '□' {
				enc[c] = r
			}
			c++
		}
	}
	// □ marks a code the encoding leaves out.
	fill(&standardEnc, 0xa0, "□¡¢£⁄¥ƒ§¤'“«‹›ﬁﬂ□–†‡·□¶•‚„”»…‰□¿□`´ˆ˜¯˘˙¨□˚¸□˝˛ˇ—□□□□□□□□□□□□□□□□Æ□ª□□□□ŁØŒº□□□□□æ□□□ı□□łøœß□□□□")
	fill(&winAnsiEnc, 0x80, "€□‚ƒ„…†‡ˆ‰Š‹Œ□Ž□□‘’“”•–—˜™š›œ□žŸ")
	for c := 0xa0; c <= 0xff; c++ {
		winAnsiEnc[c], pdfDocEnc[c] = rune(c), rune(c)
	}
	winAnsiEnc[0xad], pdfDocEnc[0xad] = '-', 0
	fill(&macRomanEnc, 0x80, "ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø¿¡¬√ƒ≈∆«»… ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄¤‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ□ÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ")
	fill(&pdfDocEnc, 0x18, "˘ˇˆ˙˝˛˚˜")
	fill(&pdfDocEnc, 0x80, "•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž□€")
	// Symbol: Greek letters where Latin ones would be, and mathematics.
	fill(&symbolEnc, 0x20, " !∀#∃%&∋()∗+,−./0123456789:;<=>?≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_□αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼")
	fill(&symbolEnc, 0xa0, "€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…□□↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓◊〈®©™∑□□□□□□□□□□□〉∫⌠□⌡")
	// ZapfDingbats: the Unicode Dingbats block was laid out after it; where the block has a
	// character of its own, the font's is elsewhere in Unicode.
	for c := 0x21; c <= 0x7e; c++ {
		zapfEnc[c] = rune(0x2700 + c - 0x20)
	}
	zapfEnc[0x20] = ' '
	for c, r := range map[int]rune{0x25: '☎', 0x2a: '☛', 0x2b: '☞', 0x48: '★', 0x6c: '●', 0x6e: '■',
		0x73: '▲', 0x74: '▼', 0x75: '◆', 0x77: '◗'} {
		zapfEnc[c] = r
	}
	for c := 0x80; c <= 0x8d; c++ {
		zapfEnc[c] = rune(0x2768 + c - 0x80)
	}
	for c := 0xa1; c <= 0xfe; c++ {
		zapfEnc[c] = rune(0x2761 + c - 0xa1)
	}
	fill(&zapfEnc, 0xa8, "♣♦♥♠①②③④⑤⑥⑦⑧⑨⑩")
	for c := 0xb6; c <= 0xd3; c++ {
		zapfEnc[c] = rune(0x2776 + c - 0xb6)
	}
	fill(&zapfEnc, 0xd4, "→→↔↕")
	for c := 0xd8; c <= 0xef; c++ {
		zapfEnc[c] = rune(0x2798 + c - 0xd8)
	}
	for c := 0xf1; c <= 0xfe; c++ {
		zapfEnc[c] = rune(0x27b1 + c - 0xf1)
	}
	zapfEnc[0xd5] = '→'

	fallbackFont = makeFallbackFont()

	for c := 'A'; c <= 'Z'; c++ {
		glyphs[string(c)] = c
		glyphs[string(c+'a'-'A')] = c + 'a' - 'A'
	}
	for i, n := range strings.Fields("zero one two three four five six seven eight nine") {
		glyphs[n] = rune('0' + i)
	}
	// Latin-1's letters: a base letter and an accent.
	for _, accent := range []struct {
		name    string
		letters string
		chars   string
	}{
		{"grave", "AEIOUaeiou", "ÀÈÌÒÙàèìòù"},
		{"acute", "AEIOUYaeiouyCcNnSsZzLlRr", "ÁÉÍÓÚÝáéíóúýĆćŃńŚśŹźĹĺŔŕ"},
		{"circumflex", "AEIOUaeiouCcGgHhJjSsWwYy", "ÂÊÎÔÛâêîôûĈĉĜĝĤĥĴĵŜŝŴŵŶŷ"},
		{"tilde", "ANOanoIiUu", "ÃÑÕãñõĨĩŨũ"},
		{"dieresis", "AEIOUaeiouyY", "ÄËÏÖÜäëïöüÿŸ"},
		{"ring", "AaUu", "ÅåŮů"},
		{"cedilla", "CcSsTt", "ÇçŞşŢţ"},
		{"caron", "CcDdEeNnRrSsTtZzLl", "ČčĎďĚěŇňŘřŠšŤťŽžĽľ"},
		{"macron", "AaEeIiOoUu", "ĀāĒēĪīŌōŪū"},
		{"breve", "AaGgUuEeIiOo", "ĂăĞğŬŭĔĕĬĭŎŏ"},
		{"ogonek", "AaEeIiUu", "ĄąĘęĮįŲų"},
		{"dotaccent", "CcEeGgZzI", "ĊċĖėĠġŻżİ"},
		{"hungarumlaut", "OoUu", "ŐőŰű"},
		{"commaaccent", "GgKkLlNnRrSsTt", "ĢģĶķĻļŅņŖŗȘșȚț"},
	} {
		chars := []rune(accent.chars)
		for i, l := range accent.letters {
			glyphs[string(l)+accent.name] = chars[i]
		}
	}
	for name, alias := range map[string]string{"Gcedilla": "Gcommaaccent", "gcedilla": "gcommaaccent",
		"Kcedilla": "Kcommaaccent", "kcedilla": "kcommaaccent", "Lcedilla": "Lcommaaccent",
		"lcedilla": "lcommaaccent", "Ncedilla": "Ncommaaccent", "ncedilla": "ncommaaccent",
		"Rcedilla": "Rcommaaccent", "rcedilla": "rcommaaccent", "Idot": "Idotaccent",
		"Cdot": "Cdotaccent", "cdot": "cdotaccent", "Edot": "Edotaccent", "edot": "edotaccent",
		"Gdot": "Gdotaccent", "gdot": "gdotaccent", "Zdot": "Zdotaccent", "zdot": "zdotaccent",
		"Odblacute": "Ohungarumlaut", "odblacute": "ohungarumlaut", "Udblacute": "Uhungarumlaut",
		"udblacute": "uhungarumlaut", "nbspace": "space", "nonbreakingspace": "space",
		"sfthyphen": "hyphen", "softhyphen": "hyphen", "middot": "periodcentered",
		"overscore": "macron", "Dslash": "Dcroat", "dmacron": "dcroat", "Ohorn": "O", "ohorn": "o",
		"Uhorn": "U", "uhorn": "u", "registersans": "registered", "registerserif": "registered",
		"copyrightsans": "copyright", "copyrightserif": "copyright", "trademarksans": "trademark",
		"trademarkserif": "trademark", "mu1": "mu", "Omega1": "Omega"} {
		glyphs[name] = glyphs[alias]
	}
}

// glyphs maps glyph names to Unicode: Latin text, typography, and the Symbol font's names.
var glyphs = map[string]rune{
	"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$', "percent": '%',
	"ampersand": '&', "quotesingle": '\'', "quoteright": '’', "parenleft": '(', "parenright": ')',
	"asterisk": '*', "plus": '+', "comma": ',', "hyphen": '-', "period": '.', "slash": '/',
	"colon": ':', "semicolon": ';', "less": '<', "equal": '=', "greater": '>', "question": '?',
	"at": '@', "bracketleft": '[', "backslash": '\\', "bracketright": ']', "asciicircum": '^',
	"underscore": '_', "grave": '`', "quoteleft": '‘', "braceleft": '{', "bar": '|',
	"braceright": '}', "asciitilde": '~',
	"exclamdown": '¡', "cent": '¢', "sterling": '£', "currency": '¤', "yen": '¥', "brokenbar": '¦',
	"section": '§', "dieresis": '¨', "copyright": '©', "ordfeminine": 'ª', "guillemotleft": '«',
	"guillemetleft": '«', "logicalnot": '¬', "registered": '®', "macron": '¯', "degree": '°',
	"plusminus": '±', "twosuperior": '²', "threesuperior": '³', "acute": '´', "mu": 'µ',
	"paragraph": '¶', "periodcentered": '·', "cedilla": '¸', "onesuperior": '¹',
	"ordmasculine": 'º', "guillemotright": '»', "guillemetright": '»', "onequarter": '¼',
	"onehalf": '½', "threequarters": '¾', "questiondown": '¿', "AE": 'Æ', "Eth": 'Ð',
	"multiply": '×', "Oslash": 'Ø', "Thorn": 'Þ', "germandbls": 'ß', "ae": 'æ', "eth": 'ð',
	"divide": '÷', "oslash": 'ø', "thorn": 'þ', "Euro": '€', "euro": '€', "quotesinglbase": '‚',
	"florin": 'ƒ', "quotedblbase": '„', "ellipsis": '…', "dagger": '†', "daggerdbl": '‡',
	"circumflex": 'ˆ', "perthousand": '‰', "guilsinglleft": '‹', "OE": 'Œ', "quotedblleft": '“',
	"quotedblright": '”', "bullet": '•', "endash": '–', "emdash": '—', "tilde": '˜',
	"trademark": '™', "guilsinglright": '›', "oe": 'œ', "fraction": '⁄', "dotlessi": 'ı',
	"dotlessj": 'ȷ', "Lslash": 'Ł', "lslash": 'ł', "ogonek": '˛', "caron": 'ˇ', "breve": '˘',
	"dotaccent": '˙', "ring": '˚', "hungarumlaut": '˝', "minus": '−', "figuredash": '‒',
	"quotereversed": '‛', "minute": '′', "second": '″', "Dcroat": 'Đ', "dcroat": 'đ', "Hbar": 'Ħ',
	"hbar": 'ħ', "IJ": 'Ĳ', "ij": 'ĳ', "kgreenlandic": 'ĸ', "Ldot": 'Ŀ', "ldot": 'ŀ',
	"napostrophe": 'ŉ', "Eng": 'Ŋ', "eng": 'ŋ', "Tbar": 'Ŧ', "tbar": 'ŧ', "longs": 'ſ',
	"Schwa": 'Ə', "schwa": 'ə', "dcaron": 'ď', "lcaron": 'ľ', "tcaron": 'ť',
	"notequal": '≠', "lessequal": '≤', "greaterequal": '≥', "infinity": '∞', "partialdiff": '∂',
	"summation": '∑', "product": '∏', "pi": 'π', "integral": '∫', "radical": '√',
	"approxequal": '≈', "lozenge": '◊', "increment": '∆', "Ohm": 'Ω', "dotmath": '⋅',
	"universal": '∀', "existential": '∃', "suchthat": '∋', "asteriskmath": '∗',
	"congruent": '≅', "therefore": '∴', "perpendicular": '⊥', "similar": '∼', "club": '♣',
	"diamond": '♦', "heart": '♥', "spade": '♠', "arrowboth": '↔', "arrowleft": '←',
	"arrowup": '↑', "arrowright": '→', "arrowdown": '↓', "proportional": '∝',
	"equivalence": '≡', "carriagereturn": '↵', "aleph": 'ℵ', "Ifraktur": 'ℑ', "Rfraktur": 'ℜ',
	"weierstrass": '℘', "circlemultiply": '⊗', "circleplus": '⊕', "emptyset": '∅',
	"intersection": '∩', "union": '∪', "propersuperset": '⊃', "reflexsuperset": '⊇',
	"notsubset": '⊄', "propersubset": '⊂', "reflexsubset": '⊆', "element": '∈',
	"notelement": '∉', "angle": '∠', "gradient": '∇', "logicaland": '∧', "logicalor": '∨',
	"arrowdblboth": '⇔', "arrowdblleft": '⇐', "arrowdblup": '⇑', "arrowdblright": '⇒',
	"arrowdbldown": '⇓', "angleleft": '〈', "angleright": '〉', "integraltp": '⌠',
	"integralbt": '⌡', "Upsilon1": 'ϒ', "theta1": 'ϑ', "phi1": 'ϕ', "omega1": 'ϖ', "sigma1": 'ς',
	"Alpha": 'Α', "Beta": 'Β', "Gamma": 'Γ', "Delta": 'Δ', "Epsilon": 'Ε', "Zeta": 'Ζ', "Eta": 'Η',
	"Theta": 'Θ', "Iota": 'Ι', "Kappa": 'Κ', "Lambda": 'Λ', "Mu": 'Μ', "Nu": 'Ν', "Xi": 'Ξ',
	"Omicron": 'Ο', "Pi": 'Π', "Rho": 'Ρ', "Sigma": 'Σ', "Tau": 'Τ', "Upsilon": 'Υ', "Phi": 'Φ',
	"Chi": 'Χ', "Psi": 'Ψ', "Omega": 'Ω', "alpha": 'α', "beta": 'β', "gamma": 'γ', "delta": 'δ',
	"epsilon": 'ε', "zeta": 'ζ', "eta": 'η', "theta": 'θ', "iota": 'ι', "kappa": 'κ',
	"lambda": 'λ', "nu": 'ν', "xi": 'ξ', "omicron": 'ο', "rho": 'ρ', "sigma": 'σ', "tau": 'τ',
	"upsilon": 'υ', "phi": 'φ', "chi": 'χ', "psi": 'ψ', "omega": 'ω',
	"checkmark": '✓', "filledbox": '■', "H18533": '●', "H18543": '▪', "H18551": '▫',
	"H22073": '□', "circle": '○', "triagup": '▲', "triagdn": '▼', "arrowvertex": 0,
	"arrowhorizex": 0, "radicalex": 0, "apple": 0,
}

// ligatures spells out the ligature characters search would not match.
var ligatures = map[string]string{"ff": "ff", "fi": "fi", "fl": "fl", "ffi": "ffi", "ffl": "ffl",
	"f_f": "ff", "f_i": "fi", "f_l": "fl", "f_f_i": "ffi", "f_f_l": "ffl", "s_t": "st", "c_t": "ct",
	"T_h": "Th"}

// glyphText answers the text of a glyph name: a known name, uniXXXX, uXXXX[XX], a name with
// a suffix (a.sc), or a ligature's parts (f_f_i); "" and false when it is none of those.
func glyphText(name string) (string, bool) {
	if l, ok := ligatures[name]; ok {
		return l, true
	}
	if r, ok := glyphs[name]; ok {
		if r == 0 {
			return "", true
		}
		return string(r), true
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return glyphText(name[:i])
	}
	if strings.Contains(name, "_") {
		var b strings.Builder
		for part := range strings.SplitSeq(name, "_") {
			t, ok := glyphText(part)
			if !ok {
				return "", false
			}
			b.WriteString(t)
		}
		return b.String(), true
	}
	if h, ok := strings.CutPrefix(name, "uni"); ok && len(h) >= 4 && len(h)%4 == 0 {
		var b strings.Builder
		for i := 0; i < len(h); i += 4 {
			v, err := strconv.ParseUint(h[i:i+4], 16, 16)
			if err != nil || (v >= 0xd800 && v < 0xe000) {
				return "", false
			}
			b.WriteRune(rune(v))
		}
		return clean(b.String()), true
	}
	if h, ok := strings.CutPrefix(name, "u"); ok && len(h) >= 4 && len(h) <= 6 {
		v, err := strconv.ParseUint(h, 16, 32)
		if err == nil && v <= utf8.MaxRune && (v < 0xd800 || v >= 0xe000) {
			return clean(string(rune(v))), true
		}
	}
	return "", false
}

// clean answers the text a glyph stands for as search wants it: ligatures spelled out, a
// no-break space as a space, control characters and private-use characters (icons, a
// symbol font's own codes) dropped.
func clean(s string) string {
	ok := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0xa0 || (r >= 0xe000 && r <= 0xf8ff) || (r >= 0xfb00 && r <= 0xfb06) || r == utf8.RuneError {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0xa0:
			b.WriteByte(' ')
		case r >= 0xfb00 && r <= 0xfb06:
			b.WriteString([]string{"ff", "fi", "fl", "ffi", "ffl", "st", "st"}[r-0xfb00])
		case r < 0x20 && r != '\t' || r == 0x7f || (r >= 0xe000 && r <= 0xf8ff) || r == utf8.RuneError:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// runeText answers the text of one character, sharing the strings of the common ones.
func runeText(r rune) string {
	if r >= 0 && r < rune(len(shortText)) {
		return shortText[r]
	}
	return clean(string(r))
}

var shortText = func() (t [0x250]string) {
	for r := range t {
		t[r] = clean(string(rune(r)))
	}
	return t
}()
