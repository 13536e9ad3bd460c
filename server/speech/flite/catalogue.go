package flite

import (
	"strings"

	"github.com/bettyhq/betty/server/speech"
)

// preset is one of flite's voices offered as a preset. flite names its voices by the
// recording they were built from ("slt"); Betty gives them names people can tell apart from
// espeak-ng's, and says which recording each is in its description.
type preset struct {
	voice  string
	name   string
	gender speech.Gender
	tag    string
	sounds string
}

// curated is the order flite's presets are offered in: the two clearest (CMU ARCTIC unit
// selection voices, American English) first. Only those flite has are offered.
var curated = []preset{
	{"slt", "Sarah", speech.Female, "en-US", "CMU ARCTIC slt, American English, female"},
	{"rms", "Richard", speech.Male, "en-US", "CMU ARCTIC rms, American English, male"},
	{"awb", "Alastair", speech.Male, "en-GB", "CMU ARCTIC awb, Scottish English, male"},
	{"kal16", "Kal", speech.Male, "en-US", "the kal diphone voice at 16 kHz, American English, male; flatter than the others"},
}

// parseVoices reads `flite -lv` ("Voices available: kal awb_time kal16 awb rms slt").
func parseVoices(out string) map[string]bool {
	_, list, _ := strings.Cut(out, ":")
	found := map[string]bool{}
	for _, v := range strings.Fields(list) {
		found[v] = true
	}
	return found
}

// curate keeps the curated presets flite has.
func curate(installed map[string]bool) []speech.Voice {
	out := []speech.Voice{}
	for _, p := range curated {
		if !installed[p.voice] {
			continue
		}
		out = append(out, speech.Voice{
			ID:          "flite-" + strings.ToLower(p.tag) + "-" + p.voice,
			Name:        p.name,
			Gender:      p.gender,
			Language:    p.tag,
			Description: "flite's " + p.sounds + ": a synthetic voice, clearer than espeak-ng's, English only.",
			EngineVoice: p.voice,
			Engine:      Name,
		})
	}
	return out
}
