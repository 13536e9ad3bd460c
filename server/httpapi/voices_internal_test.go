package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/speech"
)

// Without --stt-url, whatever needs a transcript is answered 503 with a code of its own and the
// setting named; nothing makes one up.
func TestSpeechToTextNotConfigured(t *testing.T) {
	rec, p, _ := serve(t, func(echo.Context) error {
		_, err := speech.New(nil, nil).Transcribe(t.Context(), strings.NewReader("audio"), "call.mp3")
		return err
	})
	if rec.Code != http.StatusServiceUnavailable || p.Code != api.ProblemCodeSpeechToTextNotConfigured ||
		p.Detail == nil || !strings.Contains(*p.Detail, "--stt-url (BETTY_STT_URL)") {
		t.Fatalf("%d %+v", rec.Code, p)
	}
}
