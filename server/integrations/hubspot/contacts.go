package hubspot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflows"
)

// Row is a HubSpot contact as Betty answers it: a node's stored copy, or one just read from
// HubSpot (then ID is the HubSpot record id and it has no call state).
type Row = store.ExternalContact

// Betty's lifecycle stages and HubSpot's internal values differ for two of them; custom
// HubSpot stages are "other" in Betty.
var toBettyStage = map[string]string{"subscriber": "subscriber", "lead": "lead", "marketingqualifiedlead": "marketing lead",
	"salesqualifiedlead": "sales lead", "opportunity": "opportunity", "customer": "customer", "evangelist": "evangelist", "other": "other"}

// BettyStage maps a HubSpot lifecycle stage value to Betty's ("" stays "", custom → other).
func BettyStage(v string) string {
	if v == "" {
		return ""
	}
	if s, ok := toBettyStage[v]; ok {
		return s
	}
	return "other"
}

// HubSpotStage maps a stage a lifecycle-stage node names to HubSpot's value: Betty's names
// ("marketing lead") to HubSpot's built-in values, anything else (a HubSpot value, a custom
// stage's id) as it is.
func HubSpotStage(v string) string {
	for hs, b := range toBettyStage {
		if b == v {
			return hs
		}
	}
	return v
}

// rowOf reads a HubSpot contact like a CSV row: the number normalised to E.164 (a contact
// without a usable one is kept, failed, with the reason), the stage mapped.
func rowOf(c Contact) Row {
	p := c.Properties
	phone := p["phone"]
	if phone == "" {
		phone = p["mobilephone"]
	}
	ct := workflows.ContactFromFields(phone, p["firstname"], p["lastname"], p["email"], BettyStage(p["lifecyclestage"]), "")
	ct.ID, ct.CreatedAt = c.ID, c.CreatedAt
	return Row{Contact: ct, ExternalID: c.ID}
}

// node checks the Contacts node contacts are picked for or listed from: nodeID and
// workflowID go together (400), the workflow is the organisation's (404), and the node is a
// Contacts node whose source is the HubSpot app appID (422). Nil without a node.
func (s *Service) node(ctx context.Context, orgID, appID string, nodeID, workflowID *string) (*store.ContactSource, error) {
	if (nodeID == nil) != (workflowID == nil) {
		field := "nodeId"
		if workflowID == nil {
			field = "workflowId"
		}
		return nil, errs.InvalidField(field, "nodeId and workflowId go together: send both or neither")
	}
	if nodeID == nil {
		return nil, nil
	}
	if _, err := s.d.DB.WorkflowByID(ctx, orgID, *workflowID); errors.Is(err, store.ErrNotFound) {
		return nil, errs.NotFoundf("Workflow")
	} else if err != nil {
		return nil, err
	}
	src, err := s.d.DB.ContactSourceByNode(ctx, orgID, *workflowID, *nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && (src.WorkflowID != *workflowID || src.Source != "hubspot" ||
		src.ConnectedAppID == nil || *src.ConnectedAppID != appID) {
		return nil, errs.UnprocessableErr("The node is not a Contacts node of this workflow whose source is this HubSpot connected app.")
	}
	return &src, err
}

// Search answers up to 100 of the contacts whose name, e-mail or phone number contains
// match, and HubSpot's count of all matches; with a node, the matches are picked for it
// (stored as its contacts, by record id) and answered as stored.
func (s *Service) Search(ctx context.Context, orgID, appID, match string, nodeID, workflowID *string) ([]Row, int, error) {
	src, err := s.node(ctx, orgID, appID, nodeID, workflowID)
	if err != nil {
		return nil, 0, err
	}
	if src != nil && src.ListID != nil {
		return nil, 0, errs.UnprocessableErr(fmt.Sprintf("This node calls the HubSpot list %s: its contacts are the list's members, not picked through the search.", *src.ListID))
	}
	a, tok, err := s.token(ctx, orgID, appID, "connectedAppId")
	if err != nil {
		return nil, 0, err
	}
	pg, err := s.c.SearchContacts(ctx, tok, match, "")
	if err != nil {
		return nil, 0, s.translate(ctx, a, err)
	}
	rows := make([]Row, 0, len(pg.Contacts))
	for _, c := range pg.Contacts {
		rows = append(rows, rowOf(c))
	}
	if src != nil {
		if rows, err = s.pick(ctx, *src, rows); err != nil {
			return nil, 0, err
		}
	}
	return rows, max(pg.Total, len(rows)), nil
}

// pick stores rows as the node's contacts: a contact the node has is refreshed, a new one is
// added at the end (failed as a duplicate when the node already calls its number).
func (s *Service) pick(ctx context.Context, src store.ContactSource, rows []Row) ([]Row, error) {
	out := make([]Row, 0, len(rows))
	err := s.d.DB.InTx(ctx, func(ctx context.Context) error {
		out = out[:0]
		if err := s.d.DB.LockContactSource(ctx, src.OrganizationID, src.ImportID); err != nil {
			return err
		}
		for _, r := range rows {
			stored, err := s.store(ctx, src, r)
			if err != nil {
				return err
			}
			out = append(out, stored)
		}
		return nil
	})
	return out, err
}

// store writes one HubSpot contact into the node's contacts and answers the stored row.
func (s *Service) store(ctx context.Context, src store.ContactSource, r Row) (Row, error) {
	cur, err := s.d.DB.ExternalContactOfNode(ctx, src.OrganizationID, src.NodeID, src.ImportID, r.ExternalID)
	switch {
	case err == nil:
		if err := s.refresh(ctx, &cur, r); err != nil {
			return cur, err
		}
		return s.d.DB.ExternalContactOfNode(ctx, src.OrganizationID, src.NodeID, src.ImportID, r.ExternalID)
	case !errors.Is(err, store.ErrNotFound):
		return cur, err
	}
	r.OrganizationID, r.NodeID, r.ImportID = src.OrganizationID, src.NodeID, src.ImportID
	if err := s.dedupe(ctx, &r); err != nil {
		return r, err
	}
	return r, s.d.DB.InsertExternalContact(ctx, &r)
}

// dedupe fails a contact whose number the node already calls for another contact.
func (s *Service) dedupe(ctx context.Context, r *Row) error {
	if r.Status != store.ContactPending {
		return nil
	}
	owner, err := s.d.DB.PendingPhoneOwner(ctx, r.OrganizationID, r.NodeID, r.ImportID, r.Phone, r.ExternalID)
	if err != nil || owner == "" {
		return err
	}
	r.Status = store.ContactFailed
	msg := fmt.Sprintf("Duplicate of HubSpot contact %s: each number is called once.", owner)
	r.LastError = &msg
	return nil
}

// refresh rewrites a stored copy from HubSpot's record (the number only while never called).
func (s *Service) refresh(ctx context.Context, cur *Row, fresh Row) error {
	next := *cur
	next.FirstName, next.LastName, next.Email, next.LifecycleStage = fresh.FirstName, fresh.LastName, fresh.Email, fresh.LifecycleStage
	if cur.Attempts == 0 && cur.CallLogID == nil && fresh.Phone != cur.Phone {
		next.Phone, next.Region, next.TimeZone, next.Status, next.LastError = fresh.Phone, fresh.Region, fresh.TimeZone, fresh.Status, fresh.LastError
		if err := s.dedupe(ctx, &next); err != nil {
			return err
		}
	}
	*cur = next
	return s.d.DB.UpdateExternalContact(ctx, next)
}

// List answers one page (limit 100 at offset) of the portal's contacts and their count;
// with a node, of the node's HubSpot contacts, refreshed from HubSpot first (a contact
// deleted there leaves the node unless it was called); a node calling a list also has the
// list read again (lists.go) at most once every ListRefreshEvery.
// The node's contacts source is answered too (nil without a node). Without a node, page N
// starts from the deepest page cursor still kept (cursors.go).
func (s *Service) List(ctx context.Context, orgID, appID string, nodeID, workflowID *string, limit, offset int) ([]Row, int, *store.ContactSource, error) {
	src, err := s.node(ctx, orgID, appID, nodeID, workflowID)
	if err != nil {
		return nil, 0, nil, err
	}
	rows, total, err := s.list(ctx, orgID, appID, src, limit, offset)
	return rows, total, src, err
}

func (s *Service) list(ctx context.Context, orgID, appID string, src *store.ContactSource, limit, offset int) ([]Row, int, error) {
	a, tok, err := s.token(ctx, orgID, appID, "connectedAppId")
	if err != nil {
		return nil, 0, err
	}
	if src != nil {
		if src.ListID != nil && src.Status != store.ContactsParsing {
			if err := s.queueList(ctx, orgID, src.NodeID, src.ImportID, ListRefreshEvery); err != nil {
				return nil, 0, err
			}
		}
		return s.listNode(ctx, a.ID, tok, *src, limit, offset)
	}
	total, err := s.c.CountContacts(ctx, tok)
	if err != nil {
		return nil, 0, s.translate(ctx, a, err)
	}
	skipped, after := s.cursors.nearest(a.ID, offset, s.now())
	for ; skipped < offset; skipped += PageSize {
		pg, err := s.c.ListContacts(ctx, tok, after)
		if err != nil {
			s.cursors.forget(a.ID)
			return nil, 0, s.translate(ctx, a, err)
		}
		if pg.After == "" {
			return []Row{}, total, nil
		}
		after = pg.After
		s.cursors.keep(a.ID, skipped+PageSize, after, s.now())
	}
	pg, err := s.c.ListContacts(ctx, tok, after)
	if err != nil {
		s.cursors.forget(a.ID)
		return nil, 0, s.translate(ctx, a, err)
	}
	if pg.After != "" {
		s.cursors.keep(a.ID, offset+PageSize, pg.After, s.now())
	}
	rows := make([]Row, 0, len(pg.Contacts))
	for _, c := range pg.Contacts {
		rows = append(rows, rowOf(c))
	}
	return rows, max(total, offset+len(rows)), nil
}

func (s *Service) listNode(ctx context.Context, appID, tok string, src store.ContactSource, limit, offset int) ([]Row, int, error) {
	rows, _, err := s.d.DB.ExternalContactsOfNode(ctx, src.OrganizationID, src.NodeID, src.ImportID, limit, offset)
	if err != nil || len(rows) == 0 {
		return rows, 0, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ExternalID
	}
	fresh, err := s.c.ReadContacts(ctx, tok, ids)
	if err != nil {
		a, _ := s.d.Apps.Get(ctx, src.OrganizationID, appID)
		return nil, 0, s.translate(ctx, a, err)
	}
	byID := make(map[string]Contact, len(fresh))
	for _, c := range fresh {
		byID[c.ID] = c
	}
	err = s.d.DB.InTx(ctx, func(ctx context.Context) error {
		for i := range rows {
			c, ok := byID[rows[i].ExternalID]
			if !ok {
				if _, err := s.d.DB.DeleteUncalledContact(ctx, src.OrganizationID, rows[i].ID); err != nil {
					return err
				}
				continue
			}
			if err := s.refresh(ctx, &rows[i], rowOf(c)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return s.d.DB.ExternalContactsOfNode(ctx, src.OrganizationID, src.NodeID, src.ImportID, limit, offset)
}

// Stages answers the portal's lifecycle stages in display order.
func (s *Service) Stages(ctx context.Context, orgID, appID string) ([]Stage, error) {
	a, tok, err := s.token(ctx, orgID, appID, "connectedAppId")
	if err != nil {
		return nil, err
	}
	st, err := s.c.LifecycleStages(ctx, tok)
	return st, s.translate(ctx, a, err)
}
