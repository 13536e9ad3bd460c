package teams

import (
	"net/http"
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/sdk/client"
)

func TestNewCmdTransfer(t *testing.T) {
	f, _ := clitest.NewFactory(t, clitest.Options{})
	var got *TransferOptions
	cmd := NewCmdTransfer(f, func(o *TransferOptions) error { got = o; return nil })
	err := clitest.Run(cmd, "grace@example.com", "--team", "team-2", "--origin", "https://app.example.com", "--yes")
	if err != nil {
		t.Fatal(err)
	}
	if got.Email != "grace@example.com" || got.Team != "team-2" || got.Origin != "https://app.example.com" || !got.Yes {
		t.Errorf("options %+v", got)
	}
	clitest.CheckErr(t, clitest.Run(NewCmdTransfer(f, nil)), "give the e-mail address of the new owner")
}

func TestTransferRun(t *testing.T) {
	stub := clitest.NewStub(t)
	stub.Handle("POST /v1/team/transfer-ownership", clitest.Data(http.StatusOK, map[string]string{"message": "sent"}))
	f, _ := clitest.NewFactory(t, clitest.Options{Profile: clitest.LoggedIn(stub.URL)})
	if err := clitest.Run(NewCmdTransfer(f, nil), "grace@example.com", "--yes"); err != nil {
		t.Fatal(err)
	}
	var sent client.TransferTeamOwnershipRequest
	stub.Last().Decode(t, &sent)
	if sent.NewOwnerEmail != "grace@example.com" || sent.OrganizationId != "team-1" || sent.Origin != nil {
		t.Errorf("sent %+v (no origin unless --origin: the server uses its base URL)", sent)
	}
}
