package admin

import (
	"net/http"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdMailList(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    MailListOptions
		wantErr string
	}{
		{name: "defaults", want: MailListOptions{Page: 1, Limit: 20}},
		{name: "every flag", args: []string{"--recipient", "Ada@Example.com", "--page", "3", "-L", "100", "--json"}, want: MailListOptions{Recipient: "Ada@Example.com", Page: 3, Limit: 100}},
		{name: "page 0", args: []string{"--page", "0"}, wantErr: "want a number, 1 or more"},
		{name: "too many a page", args: []string{"--limit", "101"}, wantErr: "want a number from 1 to 100"},
		{name: "not an address", args: []string{"--recipient", "ada"}, wantErr: "want an address such as ada@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := clitest.NewFactory(t, clitest.Options{})
			var got *MailListOptions
			err := clitest.Run(NewCmdMailList(f, func(o *MailListOptions) error { got = o; return nil }), tt.args...)
			if clitest.CheckErr(t, err, tt.wantErr) {
				return
			}
			if got.Recipient != tt.want.Recipient || got.Page != tt.want.Page || got.Limit != tt.want.Limit {
				t.Errorf("options %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestMailListRun(t *testing.T) {
	confirm, invite := "http://localhost:8080/auth/confirm-email?token=tok-1", "http://localhost:8080/invite?t=tok-2"
	failure := "dial tcp: connection refused"
	stub := clitest.NewStub(t)
	stub.Handle("GET /v1/admin/mail", clitest.Envelope(http.StatusOK, []client.OutboxMessage{
		{Id: "mail-2", Recipient: "grace@example.com", Subject: "Join Acme support on Betty", Kind: client.OutboxMessageKindInvitation,
			Text: "Ada invited you…", Link: &invite, Status: client.OutboxMessageStatusFailed, Attempts: 2, Error: &failure, CreatedAt: clitest.When},
		{Id: "mail-1", Recipient: "ada@example.com", Subject: "Confirm your e-mail", Kind: client.OutboxMessageKindConfirmEmail,
			Text: "Confirm…", Link: &confirm, Status: client.OutboxMessageStatusKept, Attempts: 0, CreatedAt: clitest.When, SentAt: &clitest.When},
	}, &client.PageMeta{Page: 2, TotalPages: 3, TotalSize: 6, Start: 3, End: 4, HasNext: true, HasPrevious: true}))
	clitest.GoldenOutputs(t, "mail-list", stub.URL, func(f *cmdutil.Factory) *cobra.Command { return NewCmdMailList(f, nil) }, "--page", "2", "-L", "2")
	q := stub.Last().Query
	if q.Get("page") != "2" || q.Get("sizePerPage") != "2" || q.Has("recipient") {
		t.Errorf("query %v", q)
	}
	f, s := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdMailList(f, nil), "--recipient", "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if s.ErrOut.String() != "Page 2 of 3 (6 messages).\n" {
		t.Errorf("stderr %q", s.ErrOut)
	}
	if q := stub.Last().Query; q.Get("recipient") != "ada@example.com" || q.Get("page") != "1" || q.Get("sizePerPage") != "20" {
		t.Errorf("query %v", q)
	}
}
