package identity

import (
	"net/url"

	"github.com/bettyhq/betty/server/mail"
)

// The e-mails of the identity domain.

func confirmEmailMail(to, link string) mail.Message {
	return mail.Message{To: to, Kind: mail.KindConfirmEmail, Link: link, Subject: "Confirm your e-mail for Betty",
		Text: "Welcome to Betty. Confirm your e-mail address by opening this link within 24 hours:\n\n" + link + "\n"}
}

func passwordResetMail(to, link string) mail.Message {
	return mail.Message{To: to, Kind: mail.KindPasswordReset, Link: link, Subject: "Reset your Betty password",
		Text: "Someone asked to reset the password of your Betty account. If it was you, open this link within an hour:\n\n" +
			link + "\n\nIf not, ignore this e-mail.\n"}
}

func tokenQuery(token string) url.Values { return url.Values{"token": {token}} }
