package numbers_test

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/cli/numbers"
	"github.com/bettyhq/betty/server/testserver"
)

// The commands against the real server and its telephony simulator: search, buy, list,
// verify a number of the team's own (asked for the code on a terminal, and with --code),
// release.
func TestAgainstTheRealServer(t *testing.T) {
	env := testserver.Start(t)
	ada := env.SignUp(t, "ada@example.com")
	team := env.Team(t, ada, "Acme")
	profile := &config.Profile{Server: env.URL, AccessToken: ada.Access, RefreshToken: ada.Refresh, Email: ada.Email, Team: team}
	run := func(opts clitest.Options, args ...string) (string, string, error) {
		t.Helper()
		opts.Profile = profile
		f, s := clitest.NewFactory(t, opts)
		err := clitest.Run(numbers.NewCmdNumbers(f), args...)
		return s.Out.String(), s.ErrOut.String(), err
	}
	decode := func(out string, into any) {
		t.Helper()
		if err := json.Unmarshal([]byte(out), into); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}

	out, _, err := run(clitest.Options{}, "search", "--country", "CA", "--area-code", "416", "--limit", "3", "--json")
	var found []struct{ PhoneNumber, CountryCode string }
	if decode(out, &found); err != nil || len(found) != 3 || found[0].CountryCode != "CA" || !strings.HasPrefix(found[0].PhoneNumber, "+1416555") {
		t.Fatalf("search: %v %s", err, out)
	}
	out, errOut, err := run(clitest.Options{}, "buy", found[0].PhoneNumber, "--origin", "http://betty.test", "--json")
	var bought struct {
		Status      string
		PhoneNumber struct{ ID, PhoneNumber string }
	}
	if decode(out, &bought); err != nil || bought.Status != "succeeded" || bought.PhoneNumber.PhoneNumber != found[0].PhoneNumber ||
		!strings.Contains(errOut, "Bought "+found[0].PhoneNumber) {
		t.Fatalf("buy: %v %s %s", err, out, errOut)
	}
	if _, _, err := run(clitest.Options{}, "buy", found[0].PhoneNumber, "--origin", "http://betty.test"); err == nil ||
		!strings.Contains(err.Error(), "already") {
		t.Fatalf("buying it twice: %v", err)
	}

	// On a terminal the command asks for the code the carrier sent (the simulator logs it).
	const own = "+442079460142"
	codeOf := func(number string) string {
		re := regexp.MustCompile(`phone_number=` + regexp.QuoteMeta(number) + ` code=([0-9]{6})`)
		for range 200 {
			if m := re.FindAllStringSubmatch(env.Logs.String(), -1); m != nil {
				return m[len(m)-1][1]
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("no code for %s in the server log", number)
		return ""
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: profile, TTY: true})
	in, typed := io.Pipe()
	f.IO.In = in
	go func() {
		fmt.Fprintln(typed, codeOf(own))
		typed.Close()
	}()
	if err := clitest.Run(numbers.NewCmdNumbers(f), "verify", own); err != nil {
		t.Fatalf("verify on a terminal: %v: %s", err, s.ErrOut)
	}
	if !strings.Contains(s.ErrOut.String(), "Verified "+own) || !strings.Contains(s.Out.String(), "verified") {
		t.Fatalf("verify on a terminal: %s %s", s.Out, s.ErrOut)
	}

	// A script starts it, then completes it with --code.
	const other = "+16135550177"
	_, errOut, err = run(clitest.Options{}, "verify", other, "--method", "sms")
	if err != nil || !strings.Contains(errOut, "--code <code>") {
		t.Fatalf("verify without a terminal: %v %s", err, errOut)
	}
	if _, _, err := run(clitest.Options{}, "verify", other, "--code", "000000"); err == nil && codeOf(other) != "000000" {
		t.Fatal("a wrong code was accepted")
	}
	if _, errOut, err := run(clitest.Options{}, "verify", other, "--code", codeOf(other)); err != nil || !strings.Contains(errOut, "Verified") {
		t.Fatalf("verify --code: %v %s", err, errOut)
	}

	out, _, err = run(clitest.Options{}, "list", "--json")
	var listed []struct {
		ID, PhoneNumber   string
		IsNonTelnyxNumber bool
	}
	if decode(out, &listed); err != nil || len(listed) != 3 || listed[0].PhoneNumber != other || !listed[1].IsNonTelnyxNumber ||
		listed[2].ID != bought.PhoneNumber.ID {
		t.Fatalf("list: %v %s", err, out)
	}
	for _, n := range listed {
		if _, _, err := run(clitest.Options{}, "release", n.ID, "--yes"); err != nil {
			t.Fatalf("release %s: %v", n.PhoneNumber, err)
		}
	}
	if _, _, err := run(clitest.Options{}, "release", listed[0].ID, "--yes"); cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("releasing twice: %v", err)
	}
	out, _, _ = run(clitest.Options{}, "list")
	if out != "" {
		t.Fatalf("after releasing everything: %q", out)
	}
}
