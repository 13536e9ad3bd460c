// Package knowledge is the knowledge-base domain: named collections of a team's documents and
// FAQs, linked to campaigns (one active per campaign), read in the background into passages
// that full-text search answers from. Handlers, the parsing job and the call engine call the
// same methods.
package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/sync/semaphore"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/store"
)

// MaxName is the longest knowledge base or FAQ name.
const MaxName = 100

// Upload is a finished upload of a team, as Files resolves it.
type Upload struct {
	ID   string
	Name string
	// Type is the MIME type read from the bytes.
	Type string
	Size int64
}

// Object is an opened upload.
type Object interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// Files are the team's finished uploads (the uploads feature).
type Files interface {
	// Resolve answers the finished knowledge-file (or agent-file) upload of the team a
	// fileUrl names; an errs.Error says why not.
	Resolve(ctx context.Context, orgID, fileURL string) (Upload, error)
	// Open reads an upload of the team. Close it.
	Open(ctx context.Context, orgID, uploadID string) (Object, error)
	// URL is a fresh download URL of an upload.
	URL(ctx context.Context, orgID, uploadID string) (string, error)
	// Use records that by uses an upload (in the caller's transaction).
	Use(ctx context.Context, orgID, uploadID, by string) error
	// Discard records that by no longer uses an upload and deletes it when nothing else does
	// (in the caller's transaction), answering whether it did; Purge then removes its bytes
	// once that transaction committed.
	Discard(ctx context.Context, orgID, uploadID, by string) (bool, error)
	Purge(ctx context.Context, orgID, uploadID string)
}

// Service is the knowledge-base domain.
type Service struct {
	db     *store.DB
	jobs   *jobs.Queue
	files  Files
	events events.Publisher // nil: no live events
	limits Limits
	// memory is Limits.Memory, taken by each parse for what it may need.
	memory *semaphore.Weighted
}

// SetEvents publishes knowledge.updated (the file or FAQ's id) to the team's event stream, in
// the transaction of every change: added, parsed (success or error), FAQ edited, deleted.
func (s *Service) SetEvents(p events.Publisher) { s.events = p }

// changed publishes knowledge.updated for entry id (when events are set).
func (s *Service) changed(ctx context.Context, orgID, id string) error {
	if s.events == nil {
		return nil
	}
	return s.events.Publish(ctx, orgID, "knowledge.updated", id)
}

// New returns the service and registers its background work (parsing files, and sweeping
// those River gave up on) on q. Zero limits take their defaults.
func New(db *store.DB, q *jobs.Queue, files Files, limits Limits) *Service {
	if limits.Time <= 0 {
		limits.Time = DefaultParseTime
	}
	if limits.Memory <= 0 {
		limits.Memory = DefaultParseMemory
	}
	s := &Service{db: db, jobs: q, files: files, limits: limits, memory: semaphore.NewWeighted(limits.Memory)}
	s.register(q)
	return s
}

// Page asks for one page of a list.
type Page struct{ Limit, Offset int }

// Entry is a knowledge file or FAQ with, for a file, a fresh download URL.
type Entry struct {
	store.KnowledgeFile
	URL *string
}

var (
	errKBNotFound    = errs.NotFoundf("Knowledge base")
	errEntryNotFound = errs.NotFoundf("Knowledge file")
)

func kbNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errKBNotFound
	}
	return err
}

func entryNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errEntryNotFound
	}
	return err
}

// fileUser is how a knowledge file marks its upload as used.
func fileUser(id string) string { return "knowledge-file:" + id }

// OrganizationOf answers the organisation of a knowledge base (for the HTTP guard).
func (s *Service) OrganizationOf(ctx context.Context, id string) (string, error) {
	org, err := s.db.KnowledgeBaseOrganization(ctx, id)
	return org, kbNotFound(err)
}

// EntryOrganizationOf answers the organisation of a knowledge file or FAQ.
func (s *Service) EntryOrganizationOf(ctx context.Context, id string) (string, error) {
	org, err := s.db.KnowledgeFileOrganization(ctx, id)
	return org, entryNotFound(err)
}

func checkName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errs.InvalidField(field, "name is required")
	case utf8.RuneCountInString(name) > MaxName:
		return "", errs.InvalidField(field, fmt.Sprintf("the name must have at most %d characters", MaxName))
	}
	return name, nil
}

func (s *Service) campaign(ctx context.Context, orgID, id string) error {
	if _, err := s.db.CampaignByID(ctx, orgID, id); errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Campaign")
	} else if err != nil {
		return err
	}
	return nil
}

func duplicateName(name string) error {
	return errs.ConflictErr(fmt.Sprintf("This team already has a knowledge base named %q.", name))
}

// Create creates an empty knowledge base; with campaignID it is made for that campaign and
// linked to it, active when the campaign has no active one.
func (s *Service) Create(ctx context.Context, a auth.Actor, name string, campaignID *string) (store.KnowledgeBase, error) {
	name, err := checkName("body.name", name)
	if err != nil {
		return store.KnowledgeBase{}, err
	}
	kb := store.KnowledgeBase{OrganizationID: a.OrganizationID, Name: name, CampaignID: campaignID}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if campaignID != nil {
			if err := s.campaign(ctx, a.OrganizationID, *campaignID); err != nil {
				return err
			}
		}
		if err := s.db.CreateKnowledgeBase(ctx, &kb); errors.Is(err, store.ErrConflict) {
			return duplicateName(name)
		} else if err != nil {
			return err
		}
		if campaignID != nil {
			return s.db.LinkKnowledgeBase(ctx, a.OrganizationID, kb.ID, *campaignID)
		}
		return nil
	})
	if err != nil {
		return store.KnowledgeBase{}, err
	}
	return s.Get(ctx, a, kb.ID)
}

// Get answers one of the team's knowledge bases.
func (s *Service) Get(ctx context.Context, a auth.Actor, id string) (store.KnowledgeBase, error) {
	kb, err := s.db.KnowledgeBaseByID(ctx, a.OrganizationID, id)
	return kb, kbNotFound(err)
}

// Rename renames a knowledge base.
func (s *Service) Rename(ctx context.Context, a auth.Actor, id, name string) (store.KnowledgeBase, error) {
	name, err := checkName("body.name", name)
	if err != nil {
		return store.KnowledgeBase{}, err
	}
	switch err := s.db.RenameKnowledgeBase(ctx, a.OrganizationID, id, name); {
	case errors.Is(err, store.ErrConflict):
		return store.KnowledgeBase{}, duplicateName(name)
	case err != nil:
		return store.KnowledgeBase{}, kbNotFound(err)
	}
	return s.Get(ctx, a, id)
}

// List lists the team's knowledge bases by name; with campaignID, those linked to it.
func (s *Service) List(ctx context.Context, a auth.Actor, campaignID string, pg Page) ([]store.KnowledgeBase, int, error) {
	if campaignID != "" {
		if err := s.campaign(ctx, a.OrganizationID, campaignID); err != nil {
			return nil, 0, err
		}
	}
	return s.db.ListKnowledgeBases(ctx, a.OrganizationID, campaignID, pg.Limit, pg.Offset)
}

// Delete deletes a knowledge base with its links, entries and their passages; the uploads its
// files came from are deleted too (unless something else uses them).
func (s *Service) Delete(ctx context.Context, a auth.Actor, id string) error {
	var purge []string
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		files, err := s.db.UploadsOfKnowledgeBase(ctx, a.OrganizationID, id)
		if err != nil {
			return err
		}
		if err := s.db.DeleteKnowledgeBase(ctx, a.OrganizationID, id); err != nil {
			return kbNotFound(err)
		}
		for _, f := range files {
			deleted, err := s.files.Discard(ctx, a.OrganizationID, *f.UploadID, fileUser(f.ID))
			if err != nil {
				return err
			}
			if deleted {
				purge = append(purge, *f.UploadID)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range purge {
		s.files.Purge(ctx, a.OrganizationID, id)
	}
	return nil
}

// Activate makes a knowledge base the campaign's active one (every other inactive).
func (s *Service) Activate(ctx context.Context, a auth.Actor, kbID, campaignID string) (store.KnowledgeBaseLink, error) {
	if err := s.bothOfTeam(ctx, a, kbID, campaignID); err != nil {
		return store.KnowledgeBaseLink{}, err
	}
	return s.db.ActivateKnowledgeBase(ctx, a.OrganizationID, kbID, campaignID)
}

// Deactivate makes a knowledge base inactive for a campaign, leaving it none active.
func (s *Service) Deactivate(ctx context.Context, a auth.Actor, kbID, campaignID string) (store.KnowledgeBaseLink, error) {
	if err := s.bothOfTeam(ctx, a, kbID, campaignID); err != nil {
		return store.KnowledgeBaseLink{}, err
	}
	l, err := s.db.DeactivateKnowledgeBase(ctx, a.OrganizationID, kbID, campaignID)
	if errors.Is(err, store.ErrNotFound) {
		return l, errs.NotFoundf("Knowledge base link") // never linked to this campaign
	}
	return l, err
}

func (s *Service) bothOfTeam(ctx context.Context, a auth.Actor, kbID, campaignID string) error {
	if _, err := s.Get(ctx, a, kbID); err != nil {
		return err
	}
	return s.campaign(ctx, a.OrganizationID, campaignID)
}

// AddFile adds a finished upload of the team to a knowledge base and queues its parsing, in
// one transaction: the entry answers status parsing. name defaults to the upload's name.
func (s *Service) AddFile(ctx context.Context, a auth.Actor, kbID, fileURL, name string) (Entry, error) {
	var f store.KnowledgeFile
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		if _, err := s.Get(ctx, a, kbID); err != nil {
			return err
		}
		up, err := s.files.Resolve(ctx, a.OrganizationID, fileURL)
		if err != nil {
			return err
		}
		format, ok := FormatOf(up.Type)
		if !ok {
			return errs.UnprocessableErr(fmt.Sprintf("Betty cannot read this type of file (%s); upload a PDF, DOCX, TXT, Markdown, CSV or HTML file.", up.Type))
		}
		if name = strings.TrimSpace(name); name == "" {
			name = up.Name
		}
		f = store.KnowledgeFile{OrganizationID: a.OrganizationID, KnowledgeBaseID: kbID, Type: string(format), Status: store.KnowledgeParsing,
			Name: name, UploadID: &up.ID, FileName: &up.Name, Size: up.Size}
		if err := s.db.CreateKnowledgeFile(ctx, &f); err != nil {
			return err
		}
		if err := s.files.Use(ctx, a.OrganizationID, up.ID, fileUser(f.ID)); err != nil {
			return err
		}
		if err := s.changed(ctx, a.OrganizationID, f.ID); err != nil {
			return err
		}
		return s.queueParse(ctx, f)
	})
	if err != nil {
		return Entry{}, err
	}
	return s.entry(ctx, f)
}

func (s *Service) entry(ctx context.Context, f store.KnowledgeFile) (Entry, error) {
	e := Entry{KnowledgeFile: f}
	if f.UploadID != nil {
		url, err := s.files.URL(ctx, f.OrganizationID, *f.UploadID)
		if err != nil {
			return Entry{}, err
		}
		e.URL = &url
	}
	return e, nil
}

func (s *Service) entries(ctx context.Context, rows []store.KnowledgeFile) ([]Entry, error) {
	out := make([]Entry, 0, len(rows))
	for _, f := range rows {
		e, err := s.entry(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// MaxFAQ is the longest FAQ text, in characters.
const MaxFAQ = 20000

func checkFAQ(text string) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "", errs.InvalidField("body.faq", "faq is required")
	case utf8.RuneCountInString(text) > MaxFAQ:
		return "", errs.InvalidField("body.faq", fmt.Sprintf("the FAQ must have at most %d characters", MaxFAQ))
	}
	return text, nil
}

// AddFAQ adds a FAQ to a knowledge base: ready (success) and searchable at once.
func (s *Service) AddFAQ(ctx context.Context, a auth.Actor, kbID, name, text string) (Entry, error) {
	name, err := checkName("body.name", name)
	if err != nil {
		return Entry{}, err
	}
	if text, err = checkFAQ(text); err != nil {
		return Entry{}, err
	}
	f := store.KnowledgeFile{OrganizationID: a.OrganizationID, KnowledgeBaseID: kbID, Type: store.KnowledgeFAQ, Status: store.KnowledgeSuccess,
		Name: name, FAQ: &text, Size: int64(len(text))}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if _, err := s.Get(ctx, a, kbID); err != nil {
			return err
		}
		if err := s.db.CreateKnowledgeFile(ctx, &f); err != nil {
			return err
		}
		if err := s.changed(ctx, a.OrganizationID, f.ID); err != nil {
			return err
		}
		return s.db.ReplacePassages(ctx, a.OrganizationID, kbID, f.ID, faqPassages(name, text))
	})
	if err != nil {
		return Entry{}, err
	}
	return Entry{KnowledgeFile: f}, nil
}

// UpdateFAQ replaces a FAQ's name and text, and its passages.
func (s *Service) UpdateFAQ(ctx context.Context, a auth.Actor, id, name, text string) (Entry, error) {
	name, err := checkName("body.name", name)
	if err != nil {
		return Entry{}, err
	}
	if text, err = checkFAQ(text); err != nil {
		return Entry{}, err
	}
	var f store.KnowledgeFile
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		if f, err = s.db.KnowledgeFileByID(ctx, a.OrganizationID, id); err != nil {
			return entryNotFound(err)
		}
		if f.Type != store.KnowledgeFAQ {
			return errs.UnprocessableErr("This entry is an uploaded file, not a FAQ: its text comes from the file.")
		}
		f.Name, f.FAQ, f.Size = name, &text, int64(len(text))
		if err := s.db.UpdateKnowledgeFAQ(ctx, &f); err != nil {
			return entryNotFound(err)
		}
		if err := s.changed(ctx, a.OrganizationID, f.ID); err != nil {
			return err
		}
		return s.db.ReplacePassages(ctx, a.OrganizationID, f.KnowledgeBaseID, f.ID, faqPassages(name, text))
	})
	if err != nil {
		return Entry{}, err
	}
	return Entry{KnowledgeFile: f}, nil
}

// faqPassages indexes a FAQ like a document whose heading is its name. A FAQ is no bigger than
// a request body, far below what a document may hold, so the caps never cut it.
func faqPassages(name, faq string) []store.Passage {
	t := &text{ctx: context.Background()}
	_ = t.add(Block{Heading: true, Text: name})
	_ = paragraphs(faq, t)
	return Split(Document{Blocks: t.blocks})
}

// GetEntry answers one knowledge file or FAQ of the team.
func (s *Service) GetEntry(ctx context.Context, a auth.Actor, id string) (Entry, error) {
	f, err := s.db.KnowledgeFileByID(ctx, a.OrganizationID, id)
	if err != nil {
		return Entry{}, entryNotFound(err)
	}
	return s.entry(ctx, f)
}

// Entries lists a knowledge base's files and FAQs, newest first.
func (s *Service) Entries(ctx context.Context, a auth.Actor, kbID string, pg Page) ([]Entry, int, error) {
	if _, err := s.Get(ctx, a, kbID); err != nil {
		return nil, 0, err
	}
	rows, total, err := s.db.ListKnowledgeFiles(ctx, a.OrganizationID, kbID, pg.Limit, pg.Offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.entries(ctx, rows)
	return out, total, err
}

// DeleteEntry deletes a knowledge file or FAQ with its passages; a file's upload goes too
// (unless something else uses it), and a parsing still queued finds nothing to do.
func (s *Service) DeleteEntry(ctx context.Context, a auth.Actor, id string) error {
	var purge string
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		f, err := s.db.KnowledgeFileByID(ctx, a.OrganizationID, id)
		if err != nil {
			return entryNotFound(err)
		}
		if err := s.db.DeleteKnowledgeFile(ctx, a.OrganizationID, id); err != nil {
			return entryNotFound(err)
		}
		if err := s.changed(ctx, a.OrganizationID, id); err != nil {
			return err
		}
		if f.UploadID == nil {
			return nil
		}
		deleted, err := s.files.Discard(ctx, a.OrganizationID, *f.UploadID, fileUser(f.ID))
		if deleted {
			purge = *f.UploadID
		}
		return err
	})
	if err != nil {
		return err
	}
	if purge != "" {
		s.files.Purge(ctx, a.OrganizationID, purge)
	}
	return nil
}
