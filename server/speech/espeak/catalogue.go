package espeak

import (
	"fmt"
	"strings"

	"github.com/bettyhq/betty/server/speech"
)

// preset is one curated pairing of an espeak-ng language and a voice variant. Betty names
// the variants espeak-ng numbers (female2…) so a picker shows names, not numbers.
type preset struct {
	lang    string // espeak-ng's language ("en-us")
	tag     string // BCP 47 ("en-US")
	variant string // espeak-ng's variant file ("linda", "f2")
	name    string
}

// curated is the order presets are offered in: American and British English first,
// alternating female and male, then one female and one male voice per language. Only the
// pairs whose language and variant espeak-ng has are offered.
var curated = []preset{
	{"en-us", "en-US", "linda", "Linda"},
	{"en-us", "en-US", "adam", "Adam"},
	{"en-gb", "en-GB", "steph", "Steph"},
	{"en-gb", "en-GB", "robert", "Robert"},
	{"en-us", "en-US", "Annie", "Annie"},
	{"en-us", "en-US", "Michael", "Michael"},
	{"en-gb", "en-GB", "belinda", "Belinda"},
	{"en-gb", "en-GB", "paul", "Paul"},
	{"en-us", "en-US", "f4", "Claire"},
	{"en-us", "en-US", "max", "Max"},
	{"es", "es-ES", "Alicia", "Alicia"},
	{"es", "es-ES", "pablo", "Pablo"},
	{"es-419", "es-419", "Andrea", "Andrea"},
	{"es-419", "es-419", "miguel", "Miguel"},
	{"fr-fr", "fr-FR", "anika", "Anika"},
	{"fr-fr", "fr-FR", "michel", "Michel"},
	{"de", "de-DE", "f2", "Greta"},
	{"de", "de-DE", "norbert", "Norbert"},
	{"it", "it-IT", "f5", "Giulia"},
	{"it", "it-IT", "Marco", "Marco"},
	{"pt-br", "pt-BR", "f3", "Beatriz"},
	{"pt-br", "pt-BR", "Henrique", "Henrique"},
	{"nl", "nl-NL", "f2", "Sanne"},
	{"nl", "nl-NL", "m3", "Daan"},
}

// listed is one line of `espeak-ng --voices` (a language) or `--voices=variant`.
type listed struct {
	gender speech.Gender
	name   string // espeak-ng's name, underscores for spaces ("English_(America)")
}

// parseVoices reads espeak-ng's voice listing (columns: Pty, Language, Age/Gender,
// VoiceName, File, Other languages), keyed by language, or by variant file for variants
// ("!v/linda" → "linda").
func parseVoices(out string) map[string]listed {
	found := map[string]listed{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || f[0] == "Pty" {
			continue
		}
		l := listed{gender: speech.Neutral, name: f[3]}
		if _, g, ok := strings.Cut(f[2], "/"); ok {
			switch g {
			case "F":
				l.gender = speech.Female
			case "M":
				l.gender = speech.Male
			}
		}
		key := f[1]
		if key == "variant" {
			key = strings.TrimPrefix(f[4], "!v/")
		}
		found[key] = l
	}
	return found
}

// curate keeps the curated presets whose language and variant are installed.
func curate(langs, variants map[string]listed) []speech.Voice {
	out := []speech.Voice{}
	for _, p := range curated {
		lang, ok := langs[p.lang]
		if !ok {
			continue
		}
		variant, ok := variants[p.variant]
		if !ok {
			continue
		}
		language := strings.ReplaceAll(lang.name, "_", " ")
		out = append(out, speech.Voice{
			ID:       "espeak-" + strings.ToLower(p.lang+"-"+p.variant),
			Name:     p.name,
			Gender:   variant.gender,
			Language: p.tag,
			Description: fmt.Sprintf("espeak-ng's %s voice with its %s variant: a synthetic voice, clear but not human-sounding.",
				language, variant.name),
			EngineVoice: p.lang + "+" + p.variant,
			Engine:      Name,
		})
	}
	return out
}
