package teams

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
)

// The e-mails of the team domain.

func invitationMail(to, inviter string, o store.Organization, role auth.Role, link string) mail.Message {
	return mail.Message{To: to, Kind: mail.KindInvitation, Link: link,
		Subject: fmt.Sprintf("You are invited to join %s on Betty", o.Name),
		Text: fmt.Sprintf("%s invited you to join the team %q on Betty as %s. Open this link within 7 days to accept:\n\n%s\n\n"+
			"If you have no Betty account yet, sign up with this e-mail address first. If you did not expect this, ignore this e-mail.\n",
			inviter, o.Name, role, link)}
}

func ownershipTransferMail(to, from string, o store.Organization, link string) mail.Message {
	return mail.Message{To: to, Kind: mail.KindOwnershipTransfer, Link: link,
		Subject: fmt.Sprintf("Become the owner of %s on Betty", o.Name),
		Text: fmt.Sprintf("%s wants to make you the owner of the team %q on Betty; they will stay in the team as an admin. "+
			"To accept, open this link within 72 hours:\n\n%s\n\nIf you did not expect this, ignore this e-mail.\n", from, o.Name, link)}
}

func verificationRequestMail(to string, o store.Organization, next store.VerificationLevel, link string) mail.Message {
	level := strings.ToUpper(string(next))
	return mail.Message{To: to, Kind: mail.KindVerificationRequest, Link: link,
		Subject: fmt.Sprintf("Verification requested: %s (%s)", o.Name, level),
		Text: fmt.Sprintf("The team %q asks to be verified at level %s (it is at %s now). Review it here:\n\n%s\n",
			o.Name, level, o.VerificationLevel, link)}
}

func verificationLevelMail(to string, o store.Organization, from, level store.VerificationLevel, link string) mail.Message {
	what := "is now verified at level " + strings.ToUpper(string(level))
	if level == store.LevelNone {
		what = "is no longer verified"
	} else if from == store.LevelL2 && level == store.LevelL1 {
		what = "is now verified at level L1 (it was L2)"
	}
	return mail.Message{To: to, Kind: mail.KindVerificationLevel, Link: link,
		Subject: fmt.Sprintf("%s %s on Betty", o.Name, what),
		Text: fmt.Sprintf("Your team %q %s. A Betty site administrator made this change. See your team here:\n\n%s\n",
			o.Name, what, link)}
}

// adminLink is the site-admin page of an organisation, for the admins' e-mails.
func (s *Service) adminLink(orgID string) string {
	return s.links.To("/admin", url.Values{"organizationId": {orgID}})
}

func teamQuery(orgID string) url.Values { return url.Values{"teamId": {orgID}} }

func tokenQuery(name, token string) url.Values { return url.Values{name: {token}} }
