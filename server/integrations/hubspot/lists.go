package hubspot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// HubSpot lists as a Contacts node's source.
//
// A Contacts node whose source is a HubSpot app and a listId calls the members of that
// HubSpot list (a list of contacts: static or active). Setting the source checks the list and
// queues reading it (status parsing until read, so a run waits for it); the node's contacts
// are then kept in step with the list: members who joined are added, those who left are
// removed unless they were called (their call stays on record), and every member is refreshed
// like a picked contact. The list is read again at most once every ListRefreshEvery while
// the node's contacts are listed (the dashboard lists them every 10 s), and every
// ListSweepEvery for every node calling a list, so a run started later calls the list as
// it is then, give or take the sweep. The contact search does not pick contacts for such a
// node: its contacts are the list's.

// ListRefreshEvery is how often listing a node's contacts reads its HubSpot list again.
const ListRefreshEvery = time.Minute

// ListSweepEvery is how often every node calling a HubSpot list has it read again.
const ListSweepEvery = 15 * time.Minute

// MaxListContacts is the most contacts a node takes from a list (a CSV file's most rows).
const MaxListContacts = 50_000

// listAttempts is how many times reading a list is tried while HubSpot is unreachable.
const listAttempts = 5

// listArgs is the job reading a node's HubSpot list into its contacts.
type listArgs struct {
	OrganizationID string `json:"organizationId" river:"unique"`
	NodeID         string `json:"nodeId" river:"unique"`
	ImportID       string `json:"importId" river:"unique"`
}

func (listArgs) Kind() string { return "hubspot.sync_list" }

type listWorker struct {
	river.WorkerDefaults[listArgs]
	s *Service
}

func (w *listWorker) Timeout(*river.Job[listArgs]) time.Duration { return 10 * time.Minute }

func (w *listWorker) Work(ctx context.Context, job *river.Job[listArgs]) error {
	return w.s.SyncList(ctx, job.Args.OrganizationID, job.Args.NodeID, job.Args.ImportID, job.Attempt >= job.MaxAttempts)
}

// sweepArgs is the periodic job queuing a read of every node's HubSpot list.
type sweepArgs struct{}

func (sweepArgs) Kind() string { return "hubspot.sync_lists" }

type sweepWorker struct {
	river.WorkerDefaults[sweepArgs]
	s *Service
}

func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[sweepArgs]) error {
	srcs, err := w.s.d.DB.HubSpotListSources(ctx)
	if err != nil {
		return err
	}
	for _, src := range srcs {
		if err := w.s.queueList(ctx, src.OrganizationID, src.NodeID, src.ImportID, ListRefreshEvery); err != nil {
			return err
		}
	}
	return nil
}

func registerLists(q *jobs.Queue, s *Service) {
	jobs.Register(q, &listWorker{s: s})
	jobs.Register(q, &sweepWorker{s: s})
	jobs.Periodic(q, ListSweepEvery, func() river.JobArgs { return sweepArgs{} })
}

// CheckListID checks the form of a list id: HubSpot's are numbers.
func CheckListID(id string) error {
	if id == "" || len(id) > 20 || strings.Trim(id, "0123456789") != "" {
		return errs.InvalidField("body.listId", "A HubSpot list id is a number (the one in the list's address in HubSpot).")
	}
	return nil
}

// CheckList checks that the organisation's HubSpot app appID has a list of contacts listID.
func (s *Service) CheckList(ctx context.Context, orgID, appID, listID string) error {
	if err := CheckListID(listID); err != nil {
		return err
	}
	a, tok, err := s.token(ctx, orgID, appID, "body.connectedAppId")
	if err != nil {
		return err
	}
	l, err := s.c.GetList(ctx, tok, listID)
	if err != nil {
		return s.listError(ctx, a, listID, err)
	}
	if l.ObjectTypeID != ContactObjectType {
		return errs.InvalidField("body.listId", fmt.Sprintf("The HubSpot list %q holds companies, deals or other records, not contacts.", l.Name))
	}
	return nil
}

// listError names what HubSpot refused about a list: a list it does not have, or a
// connection made before Betty asked for list access.
func (s *Service) listError(ctx context.Context, a integrations.App, listID string, err error) error {
	var ae *APIError
	if errors.As(err, &ae) {
		switch ae.HTTPStatus {
		case http.StatusNotFound:
			return errs.InvalidField("body.listId", fmt.Sprintf("HubSpot has no list %s in %s.", listID, a.Name))
		case http.StatusForbidden:
			return errs.UnprocessableErr(fmt.Sprintf("HubSpot does not let Betty read the lists of %s (it was connected before Betty asked for list access): reconnect it.", a.Name))
		}
	}
	return s.translate(ctx, a, err)
}

// QueueListSync queues reading the node's list into its current import (in the caller's
// transaction).
func (s *Service) QueueListSync(ctx context.Context, orgID, nodeID, importID string) error {
	return s.queueList(ctx, orgID, nodeID, importID, 0)
}

// queueList queues reading a node's list; with every > 0, not when one was queued in the
// last every.
func (s *Service) queueList(ctx context.Context, orgID, nodeID, importID string, every time.Duration) error {
	opts := &river.InsertOpts{MaxAttempts: listAttempts}
	if every > 0 {
		opts.UniqueOpts = river.UniqueOpts{ByArgs: true, ByPeriod: every}
	}
	return s.d.Jobs.Insert(ctx, listArgs{OrganizationID: orgID, NodeID: nodeID, ImportID: importID}, opts)
}

// SyncList reads the HubSpot list of a node's current import into its contacts: members
// added or refreshed, those who left removed unless called; the source ends success with the
// counts, or error with the reason (a list gone, access refused, more than MaxListContacts
// members). A source replaced since is left alone; HubSpot unreachable is retried, and ends
// in error on the last attempt.
func (s *Service) SyncList(ctx context.Context, orgID, nodeID, importID string, lastAttempt bool) error {
	src, ok, err := s.listSource(ctx, orgID, nodeID, importID)
	if err != nil || !ok {
		return err
	}
	fail := func(err error) error {
		msg := ""
		switch {
		case errs.Is(err, errs.Invalid) || errs.Is(err, errs.Unprocessable) || errs.Is(err, errs.NotFound):
			msg = reason(err)
		case lastAttempt:
			msg = fmt.Sprintf("HubSpot could not be reached to read the list; it is read again within %d minutes.", int(ListSweepEvery.Minutes()))
		default:
			return err
		}
		_, ferr := s.d.DB.FinishContactImport(ctx, orgID, nodeID, importID, store.ContactsError, &msg, src.RowsImported, src.RowsRejected)
		return ferr
	}
	a, tok, err := s.token(ctx, orgID, *src.ConnectedAppID, "connectedAppId")
	if err != nil {
		return fail(err)
	}
	var members []string
	for after := ""; ; {
		page, next, err := s.c.ListMembers(ctx, tok, *src.ListID, after)
		if err != nil {
			return fail(s.listError(ctx, a, *src.ListID, err))
		}
		members = append(members, page...)
		if len(members) > MaxListContacts {
			return fail(errs.UnprocessableErr(fmt.Sprintf("The HubSpot list has more than %d contacts; split it to call it.", MaxListContacts)))
		}
		if next == "" {
			break
		}
		after = next
	}
	imported, rejected := 0, 0
	for start := 0; start < len(members); start += PageSize {
		chunk := members[start:min(start+PageSize, len(members))]
		found, err := s.c.ReadContacts(ctx, tok, chunk)
		if err != nil {
			return fail(s.translate(ctx, a, err))
		}
		rows := make([]Row, 0, len(found))
		for _, c := range found {
			rows = append(rows, rowOf(c))
		}
		if _, ok, err := s.listSource(ctx, orgID, nodeID, importID); err != nil || !ok {
			return err
		}
		stored, err := s.pick(ctx, src, rows)
		if err != nil {
			return err
		}
		for _, r := range stored {
			if r.Status == store.ContactFailed {
				rejected++
			} else {
				imported++
			}
		}
	}
	if err := s.dropLeavers(ctx, src, members); err != nil {
		return err
	}
	_, err = s.d.DB.FinishContactImport(ctx, orgID, nodeID, importID, store.ContactsSuccess, nil, imported, rejected)
	return err
}

// listSource answers the node's source if its current import is importID and calls a
// HubSpot list.
func (s *Service) listSource(ctx context.Context, orgID, nodeID, importID string) (store.ContactSource, bool, error) {
	src, err := s.d.DB.ContactSourceByImport(ctx, orgID, importID)
	if errors.Is(err, store.ErrNotFound) {
		return src, false, nil
	}
	ok := err == nil && src.NodeID == nodeID && src.Source == "hubspot" && src.ListID != nil && src.ConnectedAppID != nil
	return src, ok, err
}

// dropLeavers removes the node's contacts that are no longer members (unless called).
func (s *Service) dropLeavers(ctx context.Context, src store.ContactSource, members []string) error {
	held, err := s.d.DB.ExternalIDsOfImport(ctx, src.OrganizationID, src.NodeID, src.ImportID)
	if err != nil {
		return err
	}
	in := make(map[string]bool, len(members))
	for _, m := range members {
		in[m] = true
	}
	return s.d.DB.InTx(ctx, func(ctx context.Context) error {
		for id, ext := range held {
			if in[ext] {
				continue
			}
			if _, err := s.d.DB.DeleteUncalledContact(ctx, src.OrganizationID, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// reason is what a domain error says, in plain words (a field's message for an invalid one).
func reason(err error) string {
	e, ok := errs.As(err)
	switch {
	case !ok:
		return err.Error()
	case len(e.Fields) > 0:
		return e.Fields[0].Message
	}
	return e.Message
}
