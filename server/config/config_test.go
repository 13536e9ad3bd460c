package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func load(t *testing.T, args []string, env map[string]string) (Config, error) {
	t.Helper()
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return Load(fs, func(k string) string { return env[k] })
}

func TestDefaults(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DatabaseURL != "" || c.BaseURL != "http://localhost:8080" || c.MaxBodyBytes != 1<<20 {
		t.Fatalf("defaults: %+v", c)
	}
}

// Without --base-url, the URL the start-up summary prints (and `make run` relies on) is one a
// browser on this machine opens, whatever shape the listen address has.
func TestBaseURLFromAddr(t *testing.T) {
	for addr, want := range map[string]string{
		":18431":          "http://localhost:18431",
		"127.0.0.1:18431": "http://127.0.0.1:18431",
		"0.0.0.0:80":      "http://localhost:80",
		"[::1]:8080":      "http://[::1]:8080",
		"[::]:8080":       "http://localhost:8080",
		"betty.lan:8080":  "http://betty.lan:8080",
	} {
		c, err := load(t, []string{"--addr", addr}, nil)
		if err != nil || c.BaseURL != want {
			t.Errorf("--addr %s: %q %v, want %q", addr, c.BaseURL, err, want)
		}
	}
}

func TestPrecedenceFlagEnvFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "betty.yaml")
	os.WriteFile(file, []byte("addr: \":7000\"\ndata_dir: /from/file\nlog_level: warn\n"), 0o600)
	c, err := load(t, []string{"--config", file, "--addr", ":9000"}, map[string]string{"BETTY_DATA_DIR": "/from/env"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9000" || c.DataDir != "/from/env" || c.LogLevel != "warn" {
		t.Fatalf("precedence: %+v", c)
	}
}

func TestBadValuesNameTheSetting(t *testing.T) {
	_, err := load(t, nil, map[string]string{"BETTY_LOG_LEVEL": "loud"})
	if err == nil || !strings.Contains(err.Error(), "log_level (from BETTY_LOG_LEVEL)") {
		t.Fatalf("error: %v", err)
	}
	file := filepath.Join(t.TempDir(), "betty.yaml")
	os.WriteFile(file, []byte("adr: x\n"), 0o600)
	if _, err := load(t, []string{"--config", file}, nil); err == nil || !strings.Contains(err.Error(), `unknown setting "adr"`) {
		t.Fatalf("unknown key: %v", err)
	}
}

func TestDefaultIsTheDefaults(t *testing.T) {
	c := Default()
	if c.Addr != ":8080" || c.BodyTimeout != 30*time.Second || c.UploadIdleTimeout != 30*time.Second || c.RateLimit != 20 || len(c.TrustedProxies) != 0 ||
		c.KnowledgeParseTimeout != 30*time.Second || c.KnowledgeParseMemory != 128<<20 {
		t.Fatalf("default: %+v", c)
	}
}

func TestTrustedProxies(t *testing.T) {
	c, err := load(t, []string{"--trusted-proxies", "10.0.0.0/8, 192.168.1.7,::1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.TrustedProxies) != 3 || c.TrustedProxies[1].String() != "192.168.1.7/32" || c.TrustedProxies[2].String() != "::1/128" {
		t.Fatalf("%v", c.TrustedProxies)
	}
	if _, err := load(t, []string{"--trusted-proxies", "lb.internal"}, nil); err == nil || !strings.Contains(err.Error(), "trusted_proxies") {
		t.Fatalf("a host name accepted: %v", err)
	}
}

func TestContactsMaxRows(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil || c.ContactsMaxRows != 1_000_000 {
		t.Fatalf("default: %d %v", c.ContactsMaxRows, err)
	}
	if c, err = load(t, []string{"--contacts-max-rows", "2500"}, nil); err != nil || c.ContactsMaxRows != 2500 {
		t.Fatalf("%d %v", c.ContactsMaxRows, err)
	}
	for _, v := range []string{"0", "-1", "10000001", "lots"} {
		if _, err := load(t, []string{"--contacts-max-rows", v}, nil); err == nil || !strings.Contains(err.Error(), "contacts_max_rows") {
			t.Errorf("%s: %v", v, err)
		}
	}
}

func TestKnowledgeParseLimits(t *testing.T) {
	c, err := load(t, []string{"--knowledge-parse-timeout", "2s", "--knowledge-parse-memory", "512"}, nil)
	if err != nil || c.KnowledgeParseTimeout != 2*time.Second || c.KnowledgeParseMemory != 512<<20 {
		t.Fatalf("%v %v %v", c.KnowledgeParseTimeout, c.KnowledgeParseMemory, err)
	}
	for flag, v := range map[string]string{"--knowledge-parse-timeout": "1h", "--knowledge-parse-memory": "1"} {
		if _, err := load(t, []string{flag, v}, nil); err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(strings.TrimPrefix(flag, "--"), "-", "_")) {
			t.Errorf("%s %s: %v", flag, v, err)
		}
	}
}
