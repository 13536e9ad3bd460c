package workflows

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nyaruka/phonenumbers"
	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflow"
)

// Contacts of a Contacts node come from a CSV file (imported here by a River job that streams
// the file), HubSpot or Zapier (the integrations feature). The import's rules:
//   - the first row is a header; columns are matched by name ignoring case, spaces, "_" and
//     "-": phone (or phoneNumber, required), firstName, lastName, email, lifecycleStage; any
//     other column is kept on the contact under its header;
//   - a phone number is normalised to E.164 (the default region, for numbers written without
//     a country code, is the one the request names, else DefaultRegion), with its region and first time zone kept for the
//     dialer's calling window; a row without a valid number is kept, call status failed,
//     with the reason in lastError;
//   - a number written with letters is refused ("letters in the number") unless the import
//     turns letter conversion on (vanity numbers, read on a standard keypad): guessing digits
//     would dial a number nobody wrote;
//   - a number already on an earlier row of the file is kept the same way ("Duplicate of row
//     N"): the node calls each number once;
//   - a lifecycle stage outside the known ones is "other";
//   - more data rows than the server's limit (DefaultMaxContactRows unless `betty serve
//     --contacts-max-rows` says otherwise) ends the import in error, as does a file beyond the
//     bounds of csvlimits.go (columns, a row's bytes, a contact's extra fields); an import
//     that ends in error keeps none of the file's rows; the import holds one batch of rows at
//     a time, however long the file.

// DefaultRegion is the region of phone numbers written without a country code.
const DefaultRegion = "US"

// DefaultMaxContactRows is the most data rows a CSV file may have unless the server sets
// another limit (SetContactsMaxRows).
const DefaultMaxContactRows = 1_000_000

// importBatch is how many contacts are written per transaction while importing.
const importBatch = 5000

// ContactsInput is a new contacts source of a node.
type ContactsInput struct {
	WorkflowID, NodeID string
	Source             string
	FileURL, FileName  *string
	ConnectedAppID     *string
	ListID             *string
	// DefaultRegion is the region of a CSV file's numbers written without a country code
	// (ISO 3166-1 alpha-2); DefaultRegion when nil.
	DefaultRegion *string
	// ConvertLetters, for a CSV file, reads the letters of vanity numbers as keypad digits
	// instead of refusing those rows.
	ConvertLetters bool
}

// checkRegion answers the default region a CSV import uses: DefaultRegion when none is sent,
// else the one sent if the phone-number library knows it.
func checkRegion(region *string) (string, error) {
	if region == nil {
		return DefaultRegion, nil
	}
	r := strings.ToUpper(strings.TrimSpace(*region))
	if _, ok := phonenumbers.GetSupportedRegions()[r]; !ok {
		return "", errs.InvalidField("body.defaultRegion", fmt.Sprintf("%q is not a region phone numbers are known for; use a country code like US or GB", *region))
	}
	return r, nil
}

func (s *Service) contactsNode(ctx context.Context, a auth.Actor, workflowID, nodeID string) (Workflow, int, error) {
	if strings.TrimSpace(nodeID) == "" {
		return Workflow{}, 0, errs.InvalidField("body.nodeId", "Node id is required")
	}
	w, err := s.Get(ctx, a, workflowID)
	if err != nil {
		return w, 0, err
	}
	for i, n := range w.Graph.Nodes {
		if n.ID != nodeID {
			continue
		}
		if n.Type != workflow.Contacts {
			return w, 0, errs.UnprocessableErr("Contacts are set on a Contacts node; this node is a " + string(n.Type) + " node.")
		}
		return w, i, nil
	}
	return w, 0, errs.NotFoundf("Node")
}

// setNodeSource writes a node's contactsSource into the stored graph (no new version: saves do
// not own it).
func (s *Service) setNodeSource(ctx context.Context, w Workflow, index int, source string) error {
	g := workflow.Clone(w.Graph)
	if source == "" {
		delete(g.Nodes[index].Data, workflow.FieldSource)
	} else {
		g.Nodes[index].Data[workflow.FieldSource] = source
	}
	graph, _, err := encode(g)
	if err != nil {
		return err
	}
	return s.db.SetWorkflowGraph(ctx, w.OrganizationID, w.ID, graph)
}

// SetContacts sets the contacts source of an outbound workflow's Contacts node, replacing the
// previous one and its contacts. A CSV file is imported in the background (status parsing),
// and so is a HubSpot list; Zapier contacts arrive when zaps push them; other HubSpot ones
// when picked (server/integrations/hubspot).
func (s *Service) SetContacts(ctx context.Context, a auth.Actor, in ContactsInput) (store.ContactSource, error) {
	w, index, err := s.contactsNode(ctx, a, in.WorkflowID, in.NodeID)
	if err != nil {
		return store.ContactSource{}, err
	}
	if w.Type != store.Outbound {
		return store.ContactSource{}, errs.UnprocessableErr("Only outbound workflows call a list of contacts.")
	}
	src := store.ContactSource{NodeID: in.NodeID, OrganizationID: a.OrganizationID, WorkflowID: w.ID, Source: in.Source,
		Status: store.ContactsSuccess, ConnectedAppID: in.ConnectedAppID, ListID: in.ListID}
	var upload Upload
	region := DefaultRegion
	switch in.Source {
	case "csv":
		if region, err = checkRegion(in.DefaultRegion); err != nil {
			return src, err
		}
		if in.FileURL == nil || *in.FileURL == "" {
			return src, errs.InvalidField("body.fileUrl", "fileUrl is required for a CSV file")
		}
		if upload, err = s.files.Resolve(ctx, a.OrganizationID, *in.FileURL); err != nil {
			return src, err
		}
		name := upload.Name
		if in.FileName != nil {
			name = *in.FileName
		}
		src.Status, src.UploadID, src.FileName, src.FileURL = store.ContactsParsing, &upload.ID, &name, in.FileURL
		src.ConnectedAppID, src.ListID = nil, nil
	case "hubspot":
		if in.ConnectedAppID == nil {
			return src, errs.InvalidField("body.connectedAppId", "connectedAppId is required")
		}
		if s.apps == nil {
			return src, errs.UnprocessableErr("HubSpot is not configured on this server: an operator must set --hubspot-client-id and --hubspot-client-secret.")
		}
		if err := s.apps.CheckHubSpot(ctx, a.OrganizationID, *in.ConnectedAppID, in.ListID); err != nil {
			return src, err
		}
		// Its contacts are the list's members, read in the background, or else the ones picked
		// through the HubSpot contacts search (server/integrations/hubspot).
		src.UploadID, src.FileName, src.FileURL = nil, nil, nil
		if in.ListID != nil {
			src.Status = store.ContactsParsing
		}
	case "zapier":
		src.ListID = nil
	default:
		return src, errs.InvalidField("body.source", "the source is csv, hubspot or zapier")
	}
	var purge string
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		keep := ""
		if src.UploadID != nil {
			keep = *src.UploadID
			if err := s.files.Use(ctx, a.OrganizationID, keep, fileUser(w.ID, in.NodeID)); err != nil {
				return err
			}
		}
		var err error
		if purge, err = s.releaseFile(ctx, a.OrganizationID, w.ID, in.NodeID, keep); err != nil {
			return err
		}
		if err := s.db.SetContactSource(ctx, &src); err != nil {
			return err
		}
		if err := s.setNodeSource(ctx, w, index, in.Source); err != nil {
			return err
		}
		if src.Source == "hubspot" && src.ListID != nil {
			return s.apps.QueueHubSpotList(ctx, a.OrganizationID, in.NodeID, src.ImportID)
		}
		if src.UploadID == nil {
			return nil
		}
		return s.jobs.Insert(ctx, importArgs{OrganizationID: a.OrganizationID, NodeID: in.NodeID, ImportID: src.ImportID, Region: region, ConvertLetters: in.ConvertLetters},
			&river.InsertOpts{MaxAttempts: 5})
	})
	if err == nil && purge != "" {
		s.files.Purge(ctx, a.OrganizationID, purge)
	}
	return src, err
}

// ClearContacts removes a node's contacts source and contacts and clears its contactsSource.
// With want, only a source of that kind is cleared (another answers 404 when onlyWant, else
// nothing happens).
func (s *Service) ClearContacts(ctx context.Context, a auth.Actor, workflowID, nodeID, want string, onlyWant bool) error {
	w, index, err := s.contactsNode(ctx, a, workflowID, nodeID)
	if err != nil {
		return err
	}
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, w.ID, nodeID)
	switch {
	case errors.Is(err, store.ErrNotFound) && onlyWant:
		return errs.NotFoundf("CSV file")
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return err
	case want != "" && src.Source != want && onlyWant:
		return errs.NotFoundf("CSV file")
	case want != "" && src.Source != want:
		return nil
	}
	var purge string
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		var err error
		if purge, err = s.releaseFile(ctx, a.OrganizationID, w.ID, nodeID, ""); err != nil {
			return err
		}
		if err := s.db.DeleteContactSource(ctx, a.OrganizationID, w.ID, nodeID); err != nil {
			return err
		}
		return s.setNodeSource(ctx, w, index, "")
	})
	if err == nil && purge != "" {
		s.files.Purge(ctx, a.OrganizationID, purge)
	}
	return err
}

// Contacts answers a node's source and one page of its contacts (none without a source, or
// when want names another source).
func (s *Service) Contacts(ctx context.Context, a auth.Actor, workflowID, nodeID, want string, pg Page) (store.ContactSource, []store.Contact, int, error) {
	if _, _, err := s.contactsNode(ctx, a, workflowID, nodeID); err != nil {
		return store.ContactSource{}, nil, 0, err
	}
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, workflowID, nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && want != "" && src.Source != want {
		return store.ContactSource{}, []store.Contact{}, 0, nil
	}
	if err != nil {
		return src, nil, 0, err
	}
	rows, total, err := s.db.ListContacts(ctx, a.OrganizationID, nodeID, src.ImportID, pg.Limit, pg.Offset)
	return src, rows, total, err
}

// CSV answers the CSV source of a workflow's node and one page of its contacts (404 for
// another source).
func (s *Service) CSV(ctx context.Context, a auth.Actor, workflowID, nodeID string, pg Page) (store.ContactSource, []store.Contact, int, error) {
	src, err := s.db.ContactSourceByNode(ctx, a.OrganizationID, workflowID, nodeID)
	if errors.Is(err, store.ErrNotFound) || err == nil && src.Source != "csv" {
		return src, nil, 0, errs.NotFoundf("CSV file")
	}
	if err != nil {
		return src, nil, 0, err
	}
	rows, total, err := s.db.ListContacts(ctx, a.OrganizationID, nodeID, src.ImportID, pg.Limit, pg.Offset)
	return src, rows, total, err
}

// ConnectedApps checks the connected app a Contacts node's source names (the integrations).
type ConnectedApps interface {
	// CheckHubSpot is nil when appID is a connected HubSpot app of the organisation (404, 422
	// otherwise) and, with a listID, the portal has that list of contacts (400 naming
	// body.listId otherwise).
	CheckHubSpot(ctx context.Context, orgID, appID string, listID *string) error
	// QueueHubSpotList queues reading the HubSpot list of a node's import into its contacts
	// (in the caller's transaction); the source stays parsing until it is read.
	QueueHubSpotList(ctx context.Context, orgID, nodeID, importID string) error
}

// SetConnectedApps plugs the connected apps in (at start-up); without them a HubSpot source
// is refused.
func (s *Service) SetConnectedApps(c ConnectedApps) { s.apps = c }
