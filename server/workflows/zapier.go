package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// Contacts pushed by a team's zaps (the contract's addZapierContacts). The rules:
//   - the node's contacts source must be zapier (422 otherwise); at most MaxZapierContacts a
//     push;
//   - each contact goes through the CSV import's rules (contactFromRow): its number normalised
//     to E.164 (DefaultRegion for numbers without a country code), its lifecycle stage read the
//     same way, fields beyond the named ones kept as extra fields (strings, numbers or
//     booleans, within the bounds of every contact's extra fields: csvlimits.go), a number
//     that cannot be normalised kept with call status failed and the reason;
//   - a contact is matched by phone number within the node's contacts: a new number is added
//     (pending), a known one gets the fields sent (the others, and its call state, stay);
//   - contacts added while a run of the workflow is in progress over this node join that run
//     (an attempt due now each, the run's total grows), in the push's transaction;
//   - each contact new to the node is handed to added (Zapier's contact.added trigger) in the
//     same transaction.

// MaxZapierContacts is the most contacts one push may carry.
const MaxZapierContacts = 100

// ZapierContact is a contact a zap pushes.
type ZapierContact struct {
	Phone                                      string
	FirstName, LastName, Email, LifecycleStage *string
	// Extra are the fields beyond the named ones.
	Extra map[string]any
}

// ZapierPush is what a push did: the stored contacts in the order sent.
type ZapierPush struct {
	WorkflowID, NodeID string
	Added, Updated     int
	Contacts           []store.Contact
}

// ContactAdded is told of each contact new to a node, in the push's transaction.
type ContactAdded func(ctx context.Context, orgID, contactID string) error

// AddZapierContacts adds or updates contacts of the zapier Contacts node nodeID of workflow
// workflowID (the rules above).
func (s *Service) AddZapierContacts(ctx context.Context, a auth.Actor, workflowID, nodeID string, in []ZapierContact, added ContactAdded) (ZapierPush, error) {
	out := ZapierPush{WorkflowID: workflowID, NodeID: nodeID}
	if len(in) == 0 || len(in) > MaxZapierContacts {
		return out, errs.InvalidField("body.contacts", fmt.Sprintf("send 1 to %d contacts", MaxZapierContacts))
	}
	rows := make([]store.Contact, len(in))
	p := newPhones(DefaultRegion)
	for i, c := range in {
		row, err := zapierRow(c, i, p)
		if err != nil {
			return out, err
		}
		rows[i] = row
	}
	if _, _, err := s.contactsNode(ctx, a, workflowID, nodeID); err != nil {
		return out, err
	}
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, workflowID, nodeID)
		if errors.Is(err, store.ErrNotFound) {
			return errs.UnprocessableErr("This Contacts node has no contacts source: set its source to zapier first (POST /v1/workflow/contacts).")
		}
		if err != nil {
			return err
		}
		if src.Source != "zapier" {
			return errs.UnprocessableErr(fmt.Sprintf("This Contacts node's contacts come from %s, not zapier: set its source to zapier first.", src.Source))
		}
		phones := make([]string, 0, len(rows))
		for _, r := range rows {
			phones = append(phones, r.Phone)
		}
		known, err := s.db.ContactsByPhones(ctx, a.OrganizationID, nodeID, src.ImportID, phones)
		if err != nil {
			return err
		}
		seq, err := s.db.LastContactSeq(ctx, a.OrganizationID, nodeID, src.ImportID)
		if err != nil {
			return err
		}
		var fresh []store.Contact
		freshAt := map[string]int{} // phone → index in fresh (a number sent twice is added once)
		order := make([]struct {
			fresh bool
			index int
			phone string
		}, len(rows))
		updated := map[string]store.Contact{}
		for i, r := range rows {
			if k, ok := known[r.Phone]; ok {
				k = mergeContact(k, r)
				known[r.Phone], updated[r.Phone] = k, k
				order[i].phone = r.Phone
				out.Updated++
				continue
			}
			if j, ok := freshAt[r.Phone]; ok {
				fresh[j] = mergeContact(fresh[j], r)
				order[i].fresh, order[i].index = true, j
				out.Updated++
				continue
			}
			seq++
			r.OrganizationID, r.NodeID, r.ImportID, r.Seq = a.OrganizationID, nodeID, src.ImportID, seq
			freshAt[r.Phone] = len(fresh)
			order[i].fresh, order[i].index = true, len(fresh)
			fresh = append(fresh, r)
			out.Added++
		}
		for _, k := range updated {
			if err := s.db.UpdateContactFields(ctx, k); err != nil {
				return err
			}
		}
		if len(fresh) > 0 {
			if err := s.db.InsertContacts(ctx, fresh); err != nil {
				return err
			}
			imported, rejected := src.RowsImported, src.RowsRejected
			for _, c := range fresh {
				if c.Status == store.ContactPending {
					imported++
				} else {
					rejected++
				}
			}
			if _, err := s.db.FinishContactImport(ctx, a.OrganizationID, nodeID, src.ImportID, store.ContactsSuccess, nil, imported, rejected); err != nil {
				return err
			}
			if err := s.joinRun(ctx, a.OrganizationID, workflowID, nodeID, fresh); err != nil {
				return err
			}
		}
		if added != nil {
			for _, c := range fresh {
				if err := added(ctx, a.OrganizationID, c.ID); err != nil {
					return err
				}
			}
		}
		out.Contacts = make([]store.Contact, len(rows))
		for i, o := range order {
			if o.fresh {
				out.Contacts[i] = fresh[o.index]
			} else {
				out.Contacts[i] = known[o.phone]
			}
		}
		return nil
	})
	return out, err
}

// joinRun gives each pending contact of fresh an attempt due now in the workflow's run in
// progress over node nodeID, if there is one, and grows the run's total. The run's row is held
// until the push commits (RunningWorkflowJob in a transaction), so the run cannot end between
// here and the commit with these attempts left undialled; a run that ended first is not
// found, and the contacts wait, pending, for the next run.
func (s *Service) joinRun(ctx context.Context, orgID, workflowID, nodeID string, fresh []store.Contact) error {
	j, err := s.db.RunningWorkflowJob(ctx, orgID, workflowID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if j.NodeID == nil || *j.NodeID != nodeID {
		return nil
	}
	now, n := time.Now().UTC(), 0
	for _, c := range fresh {
		if c.Status != store.ContactPending {
			continue
		}
		id := c.ID
		ok, err := s.db.InsertAttempt(ctx, &store.Attempt{ID: store.AttemptID(j.ID, c.Seq, 1), OrganizationID: orgID, JobID: j.ID,
			ContactID: &id, Seq: c.Seq, Attempt: 1, Phone: c.Phone, TimeZone: c.TimeZone, State: store.AttemptScheduled, DueAt: now})
		if err != nil {
			return err
		}
		if ok {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	grown, err := s.db.GrowWorkflowJob(ctx, orgID, j.ID, n)
	if err == nil && !grown {
		err = fmt.Errorf("workflows: the run %s ended while its row was held", j.ID) // cannot happen: the row is locked
	}
	return err
}

// zapierRow reads a pushed contact through the CSV import's rules (contactFromRow).
func zapierRow(c ZapierContact, i int, p *phones) (store.Contact, error) {
	field := func(name string) string { return fmt.Sprintf("body.contacts[%d].%s", i, name) }
	if len(c.Extra) > MaxExtraFields {
		return store.Contact{}, errs.InvalidField(field("phone"), fmt.Sprintf("a contact carries at most %d extra fields", MaxExtraFields))
	}
	rec := []string{c.Phone, deref(c.FirstName), deref(c.LastName), deref(c.Email), deref(c.LifecycleStage)}
	cols := []column{colPhone, colFirstName, colLastName, colEmail, colStage}
	names := []string{"phone", "firstName", "lastName", "email", "lifecycleStage"}
	keys, held := make([]string, 0, len(c.Extra)), 0
	for k := range c.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var v string
		switch x := c.Extra[k].(type) {
		case string:
			v = x
		case bool:
			v = strconv.FormatBool(x)
		case float64:
			v = strconv.FormatFloat(x, 'f', -1, 64)
		case json.Number:
			v = x.String()
		case nil:
			continue
		default:
			return store.Contact{}, errs.InvalidField(field(k), "an extra field is a string, a number or a boolean")
		}
		var msg string
		if msg, held = extraFieldProblem(k, v, held); msg != "" {
			return store.Contact{}, errs.InvalidField(field(k), msg)
		}
		rec, cols, names = append(rec, v), append(cols, colExtra), append(names, k)
	}
	return contactFromRow(rec, cols, names, p), nil
}

// mergeContact is k with the fields r sends (extra fields merged).
func mergeContact(k, r store.Contact) store.Contact {
	if r.FirstName != nil {
		k.FirstName = r.FirstName
	}
	if r.LastName != nil {
		k.LastName = r.LastName
	}
	if r.Email != nil {
		k.Email = r.Email
	}
	if r.LifecycleStage != nil {
		k.LifecycleStage = r.LifecycleStage
	}
	if r.Extra != nil {
		merged := map[string]string{}
		if k.Extra != nil {
			_ = json.Unmarshal([]byte(*k.Extra), &merged)
		}
		var add map[string]string
		_ = json.Unmarshal([]byte(*r.Extra), &add)
		for key, v := range add {
			merged[key] = v
		}
		b, _ := json.Marshal(merged)
		k.Extra = ptr(string(b))
	}
	return k
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
