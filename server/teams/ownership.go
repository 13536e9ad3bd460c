package teams

import (
	"context"
	"errors"
	"fmt"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/links"
	"github.com/bettyhq/betty/server/mail"
	"github.com/bettyhq/betty/server/store"
)

// TransferOwnership e-mails an active member a link to become the owner. Nothing changes until
// they confirm; a new transfer cancels a pending one. The answer says where the link went.
func (s *Service) TransferOwnership(ctx context.Context, a auth.Actor, newOwnerEmail, origin string) (string, error) {
	base, err := s.links.Base(origin)
	if err != nil {
		return "", err
	}
	email := store.NormalizeEmail(newOwnerEmail)
	if email == store.NormalizeEmail(a.Email) {
		return "", errs.UnprocessableErr("You already own this team; name another member as the new owner.")
	}
	o, err := s.db.OrganizationByID(ctx, a.OrganizationID)
	if err != nil {
		return "", teamNotFound(err)
	}
	m, err := s.db.MemberByEmail(ctx, o.ID, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if err != nil || m.Status != store.MemberActive || m.UserID == nil {
		return "", errs.UnprocessableErr(email + " is not an active member of this team. Only an active member can become its owner.")
	}
	token := auth.NewOpaqueToken()
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.CancelOrganizationTokens(ctx, store.TokenOwnershipTransfer, o.ID); err != nil {
			return err
		}
		oid, mid := o.ID, m.ID
		if err := s.db.CreateToken(ctx, &store.Token{Kind: store.TokenOwnershipTransfer, TokenHash: auth.HashToken(token),
			UserID: m.UserID, OrganizationID: &oid, MemberID: &mid, Email: email,
			ExpiresAt: s.now().UTC().Add(OwnershipTransferTTL)}, false); err != nil {
			return err
		}
		link := links.At(base, "/transfer-ownership", tokenQuery("transferOwnershipToken", token))
		return s.mail.Send(ctx, ownershipTransferMail(email, a.Email, o, link))
	})
	if err != nil {
		return "", err
	}
	if s.mail.Delivers() {
		return fmt.Sprintf("We have e-mailed %s a link to confirm. Nothing changes until they do.", email), nil
	}
	return mail.LinkSent(s.mail, email) + " Nothing changes until they confirm.", nil
}

// ConfirmTransfer completes a transfer: the nominee becomes owner and the previous owner an
// admin.
func (s *Service) ConfirmTransfer(ctx context.Context, p auth.Principal, token string) (Team, error) {
	t, err := s.db.TokenByHash(ctx, store.TokenOwnershipTransfer, auth.HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (t.UsedAt != nil || s.now().After(t.ExpiresAt) ||
		t.OrganizationID == nil || t.MemberID == nil)) {
		return Team{}, errInvalidTransfer
	}
	if err != nil {
		return Team{}, err
	}
	if store.NormalizeEmail(t.Email) != store.NormalizeEmail(p.Email) {
		return Team{}, errs.ForbiddenErr("Only the member named as the new owner can confirm this transfer.")
	}
	orgID := *t.OrganizationID
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		m, err := s.db.MemberByID(ctx, orgID, *t.MemberID)
		if err != nil {
			return err
		}
		if m.Status != store.MemberActive || m.UserID == nil || *m.UserID != p.UserID || auth.Role(m.Role) == auth.Owner {
			return errs.UnprocessableErr("This transfer can no longer happen: you are not an active member of the team, or you own it already.")
		}
		// Spends this token and cancels any other pending transfer of the team.
		if err := s.db.SpendToken(ctx, t.ID); err != nil {
			return err
		}
		if err := s.db.CancelOrganizationTokens(ctx, store.TokenOwnershipTransfer, orgID); err != nil {
			return err
		}
		return s.db.TransferOwnership(ctx, orgID, p.UserID)
	})
	if errors.Is(err, store.ErrNotFound) {
		return Team{}, errInvalidTransfer
	}
	if err != nil {
		return Team{}, err
	}
	return s.Get(ctx, orgID, auth.Owner)
}
