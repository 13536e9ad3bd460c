// Package kb is `betty kb`: a team's knowledge bases — the documents and FAQs agents answer
// from — and their campaign activation and search.
package kb

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdKB returns `betty kb` and its verbs.
func NewCmdKB(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kb <command>",
		Short: "Knowledge bases: documents and FAQs agents answer from",
		Long: `Manage the knowledge bases of the current team (or the one given with --team): named
collections of documents (PDF, DOCX, TXT, Markdown, CSV, HTML; 50 MiB each) and FAQs. The
server reads each document in the background into passages that agents search while they
talk; a campaign's agents answer from its active knowledge base.

A knowledge base is named by its id or its name (ignoring case).`,
		Example: `  betty kb create "Product manuals"
  betty kb upload "Product manuals" kettle.pdf toaster.docx --wait
  betty kb faq add "Product manuals" --name Delivery --text "Q: Weekends? A: Saturdays 9 to 1."
  betty kb search "Product manuals" "how do I descale"
  betty kb activate "Product manuals" --campaign 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
		Aliases: []string{"knowledge", "knowledge-base"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdRename(f, nil), NewCmdDelete(f, nil),
		NewCmdUpload(f, nil), NewCmdFiles(f, nil), newCmdFAQ(f), NewCmdSearch(f, nil), NewCmdActivate(f, nil), NewCmdDeactivate(f, nil))
	return cmd
}

// The rules of what the commands send, copied from the contract (kb_test.go checks that they
// still agree).
var (
	kbName  = cmdutil.Rule{Name: "knowledge base name", Schema: "CreateKnowledgeBaseRequest.name", Min: 1, Max: 100}
	faqName = cmdutil.Rule{Name: "FAQ name", Schema: "CreateKnowledgeFaqRequest.name", Min: 1, Max: 100}
	faqText = cmdutil.Rule{Name: "FAQ text", Schema: "CreateKnowledgeFaqRequest.faq", Min: 1, Max: 20000}
	query   = cmdutil.Rule{Name: "question", Schema: "searchKnowledgeBase?q", Min: 1, Max: 500}
	// kbRef is a knowledge base as people name it: an id or a name.
	kbRef = cmdutil.Rule{Name: "knowledge base", Min: 1, Max: 100}
)

// resolve finds a knowledge base of the team by id or by name (ignoring case).
func resolve(ctx context.Context, c *betty.Client, team, ref string) (client.KnowledgeBase, error) {
	var byName []client.KnowledgeBase
	for kb, err := range c.KnowledgeBases(ctx, team, "") {
		if err != nil {
			return client.KnowledgeBase{}, err
		}
		if kb.Id == ref {
			return kb, nil
		}
		if strings.EqualFold(kb.Name, strings.TrimSpace(ref)) {
			byName = append(byName, kb)
		}
	}
	if len(byName) == 1 {
		return byName[0], nil
	}
	return client.KnowledgeBase{}, cmdutil.NotFoundf("no knowledge base %q in this team (see betty kb list)", ref)
}

// pages shows a page count, empty when there is none.
func pages(p *int) string {
	if p == nil {
		return ""
	}
	return fmt.Sprint(*p)
}

// fileRows is the table of files and FAQs.
func fileRows(t *cmdutil.Table, files []client.KnowledgeFile) {
	t.Header("ID", "NAME", "TYPE", "STATUS", "PAGES", "SIZE", "MESSAGE", "CREATED")
	for _, f := range files {
		t.Row(f.Id, f.Name, string(f.Type), string(f.Status), pages(f.Pages), fmt.Sprint(f.Size), cmdutil.Str(f.ErrorMessage), cmdutil.Time(&f.CreatedAt))
	}
}
