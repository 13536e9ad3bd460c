package kb

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/api"
)

// The commands' rules copy the contract's.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []cmdutil.Rule{kbName, faqName, faqText} {
		name, prop, _ := strings.Cut(r.Schema, ".")
		s := spec.Components.Schemas[name].Value.Properties[prop].Value
		if int(s.MinLength) != r.Min || s.MaxLength == nil || int(*s.MaxLength) != r.Max {
			t.Errorf("%s: rule %+v, contract min %d max %v", r.Schema, r, s.MinLength, s.MaxLength)
		}
	}
	q := spec.Paths.Find("/v1/campaigns/knowledge-base/search").Get.Parameters.GetByInAndName("query", "q").Schema.Value
	if int(q.MinLength) != query.Min || int(*q.MaxLength) != query.Max {
		t.Errorf("q: rule %+v, contract %d..%v", query, q.MinLength, q.MaxLength)
	}
}

// Usage mistakes are refused before any request, in plain words.
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"upload", "Manuals"}, "give the knowledge base (id or name) and at least one file"},
		{[]string{"upload", "Manuals", "/no/such/file.pdf"}, "/no/such/file.pdf is not a file"},
		{[]string{"create", strings.Repeat("n", 101)}, "want at most 100 characters"},
		{[]string{"faq", "add", "Manuals", "--text", "x"}, "give the FAQ a name with --name"},
		{[]string{"faq", "add", "Manuals", "--name", "x"}, "give the questions and answers with --text or --file"},
		{[]string{"faq", "add", "Manuals", "--name", "x", "--text", "a", "--file", "b"}, "not both"},
		{[]string{"faq", "edit", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"}, "give a new --name, a new text"},
		{[]string{"search", "Manuals", strings.Repeat("q", 501)}, "want at most 500 characters"},
		{[]string{"activate", "Manuals"}, "give the campaign with --campaign <id>"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		cmd := &cobra.Command{Use: "kb"}
		cmd.AddCommand(NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdUpload(f, nil), newCmdFAQ(f), NewCmdSearch(f, nil), NewCmdActivate(f, nil))
		err := clitest.Run(cmd, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, cmdutil.ExitCode(err), c.want)
		}
	}
}
