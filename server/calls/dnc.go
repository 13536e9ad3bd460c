package calls

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/nyaruka/phonenumbers"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflows"
)

// DoNotCall is a number the team must never call.
type DoNotCall = store.DoNotCall

const (
	// ImportLimit is the largest do-not-call CSV accepted.
	ImportLimit = 2 << 20
	// maxRejected is how many rejected rows an import lists.
	maxRejected = 1000
	// maxReason is the longest reason kept.
	maxReason = 500
)

// Suppressed answers which of the numbers (E.164) are on the team's list (runs.Suppressions).
func (s *Service) Suppressed(ctx context.Context, orgID string, numbers []string) (map[string]bool, error) {
	return s.db.DoNotCallNumbers(ctx, orgID, numbers)
}

// AddFromCall puts a number on the team's list because the person asked during a call
// (runs.Suppressions), in the transaction in ctx. A number listed already stays as it is.
func (s *Service) AddFromCall(ctx context.Context, orgID, number, callLogID, reason string) error {
	if e164, _, _, ok := workflows.NormalizePhone(number, "US"); ok {
		number = e164
	}
	e := DoNotCall{OrganizationID: orgID, PhoneNumber: number, Reason: orNil(clip(strings.TrimSpace(reason), maxReason)),
		AddedBy: string(store.DoNotCallConversation), Source: store.DoNotCallConversation, CallLogID: orNil(callLogID)}
	_, err := s.db.AddDoNotCalls(ctx, []DoNotCall{e})
	return err
}

// DoNotCallList answers a page of the team's list, newest first, and how many entries
// match search: digits in it match numbers containing them, words match reasons containing
// every one of them.
func (s *Service) DoNotCallList(ctx context.Context, a auth.Actor, search string, limit, offset int) ([]DoNotCall, int, error) {
	var digits strings.Builder
	letters := false
	for _, r := range search {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case unicode.IsLetter(r):
			letters = true
		}
	}
	var words []string
	if letters {
		words = strings.Fields(search)
	}
	return s.db.ListDoNotCall(ctx, a.OrganizationID, digits.String(), words, limit, offset)
}

// AddDoNotCall puts a number (E.164, or national in region; US when empty) on the team's
// list and answers the entry and whether it is new; a number listed already is answered as
// it is.
func (s *Service) AddDoNotCall(ctx context.Context, a auth.Actor, number, region, reason string) (DoNotCall, bool, error) {
	region, err := checkRegion(region, "body.defaultRegion")
	if err != nil {
		return DoNotCall{}, false, err
	}
	e164, _, _, ok := workflows.NormalizePhone(number, region)
	if !ok {
		return DoNotCall{}, false, errs.InvalidField("body.phoneNumber", fmt.Sprintf("%q is not a valid phone number.", number))
	}
	by, err := s.addedBy(ctx, a)
	if err != nil {
		return DoNotCall{}, false, err
	}
	e := DoNotCall{OrganizationID: a.OrganizationID, PhoneNumber: e164, Reason: orNil(strings.TrimSpace(reason)), AddedBy: by,
		Source: store.DoNotCallManual}
	created, err := s.db.AddDoNotCall(ctx, &e)
	return e, created, err
}

// RemoveDoNotCall takes an entry off the team's list.
func (s *Service) RemoveDoNotCall(ctx context.Context, a auth.Actor, id string) error {
	err := s.db.DeleteDoNotCall(ctx, a.OrganizationID, id)
	if errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Do-not-call entry")
	}
	return err
}

// Rejected is a row of an import that was not added.
type Rejected struct {
	Row    int
	Value  string
	Reason string
}

// Import is what an import did.
type Import struct {
	Added, AlreadyListed int
	Rejected             []Rejected
}

// ImportDoNotCall adds every valid number of a CSV (a header row naming a phone or
// phoneNumber column, and optionally reason) to the team's list, in one transaction; rows
// without a valid number are answered (the first 1000) and nothing is written for them.
func (s *Service) ImportDoNotCall(ctx context.Context, a auth.Actor, body io.Reader, region, reason string) (Import, error) {
	region, err := checkRegion(region, "query.defaultRegion")
	if err != nil {
		return Import{}, err
	}
	by, err := s.addedBy(ctx, a)
	if err != nil {
		return Import{}, err
	}
	r := csv.NewReader(io.LimitReader(body, ImportLimit+1))
	r.FieldsPerRecord, r.ReuseRecord, r.LazyQuotes = -1, true, true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return Import{}, errs.UnprocessableErr("The file is empty: it needs a header row naming a phone column.")
	}
	if err != nil {
		return Import{}, errs.UnprocessableErr("The file is not a CSV file: " + err.Error())
	}
	phoneCol, reasonCol := -1, -1
	for i, h := range header {
		switch strings.NewReplacer(" ", "", "_", "", "-", "", "\ufeff", "").Replace(strings.ToLower(strings.TrimSpace(h))) {
		case "phone", "phonenumber":
			if phoneCol < 0 {
				phoneCol = i
			}
		case "reason":
			reasonCol = i
		}
	}
	if phoneCol < 0 {
		return Import{}, errs.UnprocessableErr("The file has no phone or phoneNumber column in its header row.")
	}
	var out Import
	out.Rejected = []Rejected{}
	reject := func(row int, value, why string) {
		if len(out.Rejected) < maxRejected {
			out.Rejected = append(out.Rejected, Rejected{Row: row, Value: value, Reason: why})
		}
	}
	seen := map[string]bool{}
	var entries []DoNotCall
	for row := 1; ; row++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Import{}, errs.UnprocessableErr(fmt.Sprintf("The file could not be read past data row %d: %v", row, err))
		}
		value := ""
		if phoneCol < len(rec) {
			value = strings.TrimSpace(rec[phoneCol])
		}
		if value == "" {
			reject(row, value, "No phone number.")
			continue
		}
		e164, _, _, ok := workflows.NormalizePhone(value, region)
		if !ok {
			reject(row, value, "Not a valid phone number.")
			continue
		}
		if seen[e164] {
			out.AlreadyListed++
			continue
		}
		seen[e164] = true
		why := reason
		if reasonCol >= 0 && reasonCol < len(rec) && strings.TrimSpace(rec[reasonCol]) != "" {
			why = rec[reasonCol]
		}
		entries = append(entries, DoNotCall{OrganizationID: a.OrganizationID, PhoneNumber: e164, Reason: orNil(clip(strings.TrimSpace(why), maxReason)),
			AddedBy: by, Source: store.DoNotCallImport})
	}
	added, err := s.db.AddDoNotCalls(ctx, entries)
	if err != nil {
		return Import{}, err
	}
	out.Added = added
	out.AlreadyListed += len(entries) - added
	return out, nil
}

// addedBy names who acts: a member's e-mail, or an API key's name.
func (s *Service) addedBy(ctx context.Context, a auth.Actor) (string, error) {
	if !a.IsAPIKey() {
		return a.Email, nil
	}
	keys, err := s.db.ListAPIKeys(ctx, a.OrganizationID)
	if err != nil {
		return "", err
	}
	for _, k := range keys {
		if k.ID == a.APIKeyID {
			return k.Name, nil
		}
	}
	return "API key", nil
}

func checkRegion(region, field string) (string, error) {
	if region == "" {
		return "US", nil
	}
	if phonenumbers.GetCountryCodeForRegion(region) == 0 {
		return "", errs.InvalidField(field, fmt.Sprintf("%q is not a region with phone numbers.", region))
	}
	return region, nil
}

// clip cuts s to at most n runes.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
