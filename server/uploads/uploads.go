// Package uploads is Betty's files: resumable uploads (tus 1.0 core, creation and
// termination, at /v1/uploads) and the finished files they become, served at signed,
// time-limited URLs (/v1/files/{id}?token=…). An upload names its purpose; the purpose decides
// the types accepted (read from the bytes, not the name) and the largest size (50 MiB).
// Unfinished uploads are deleted 24 hours after they started; finished ones nothing uses, 7
// days after the last use ended. The bytes live in a storage.Storage (the data directory, or
// an S3-compatible bucket), under "<organisation>/<upload>/".
//
// # For other features
//
// An operation that takes a file (a knowledge file, an agent's teaching audio, a voice sample,
// a contacts CSV) receives the fileUrl that GET /v1/uploads/{id}/info answered, and:
//
//	// Resolve it to a finished upload of the team, of an expected purpose. Another team's
//	// upload, an unfinished or unknown one, or a URL whose token is wrong or expired: errs
//	// NotFound ("Upload not found."); another purpose: errs Unprocessable.
//	f, err := files.FileByURL(ctx, orgID, body.FileUrl, uploads.KnowledgeFile, uploads.AgentFile)
//
//	// Mark it used by the entity, in the entity's transaction, so it is never cleaned up
//	// while the entity exists (and DELETE /v1/uploads/{id} answers 409). Idempotent.
//	err = files.Use(ctx, orgID, f.ID, "knowledge-file:"+kf.ID)
//
//	// Read it (a job parsing a PDF, the dialer playing audio): an io.ReadSeekCloser that is
//	// also an io.ReaderAt, with its Size.
//	obj, f, err := files.Open(ctx, orgID, f.ID)
//
//	// Hand a fresh signed URL to a client or a provider (valid 24 hours; no query).
//	link, err := files.URL(ctx, orgID, f.ID)
//
//	// When the entity is deleted or stops using the file: the file is deleted 7 days after
//	// nothing uses it any more. Idempotent.
//	err = files.Release(ctx, orgID, f.ID, "knowledge-file:"+kf.ID)
//
// f.Type is the MIME type read from the bytes (audio/mpeg, audio/wav, audio/mp4, audio/ogg,
// application/pdf, the DOCX type, text/plain, text/markdown, text/csv, text/html), f.Name the
// name the client gave.
package uploads

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"time"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/storage"
	"github.com/bettyhq/betty/server/store"
)

const (
	// ExpireAfter is how long an unfinished upload is kept.
	ExpireAfter = 24 * time.Hour
	// UnusedFor is how long a finished upload nothing uses is kept.
	UnusedFor = 7 * 24 * time.Hour
	// storeTimeout bounds keeping the bytes of a chunk once its request has ended (the client
	// may be gone: what arrived is kept all the same).
	storeTimeout = 2 * time.Minute
)

// File is an upload: while it is not Complete, the bytes received so far (Offset); then the
// stored file.
type File struct {
	ID             string
	OrganizationID string
	Purpose        Purpose
	// Name is the file name the client gave.
	Name string
	// Type is the MIME type: read from the bytes once enough arrived, declared before.
	Type string
	Size int64
	// Offset is how many bytes arrived; Size when complete.
	Offset int64
	// Metadata is the Upload-Metadata header given at creation.
	Metadata    string
	CompletedAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Complete says whether every byte arrived and the file is stored.
func (f File) Complete() bool { return f.CompletedAt != nil }

func fileOf(u store.Upload) File {
	return File{ID: u.ID, OrganizationID: u.OrganizationID, Purpose: Purpose(u.Purpose), Name: u.FileName, Type: u.FileType,
		Size: u.Size, Offset: u.Received, Metadata: u.Metadata, CompletedAt: u.CompletedAt, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}
}

// Config is the service's settings.
type Config struct {
	// BaseURL is the server's public URL: upload locations and file URLs start with it.
	BaseURL string
	// Secret signs file URLs (a server secret kept in the database, like the token key).
	Secret []byte
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// CleanupEvery is how often the leader replica cleans up (hourly when zero).
	CleanupEvery time.Duration
}

// Service is the uploads domain.
type Service struct {
	db      *store.DB
	files   storage.Storage
	log     *slog.Logger
	sign    signer
	baseURL string
	now     func() time.Time
}

// New returns the service on files and registers its cleanup on q: a periodic job the leader
// replica runs (hourly, and when it starts leading).
func New(db *store.DB, q *jobs.Queue, files storage.Storage, log *slog.Logger, cfg Config) *Service {
	s := &Service{db: db, files: files, log: log, sign: signer{key: cfg.Secret}, baseURL: cfg.BaseURL, now: cfg.Now}
	if s.now == nil {
		s.now = time.Now
	}
	every := cfg.CleanupEvery
	if every <= 0 {
		every = time.Hour
	}
	registerCleanup(q, s, every)
	return s
}

// MaxSize is the largest upload accepted (tus's Tus-Max-Size).
func (s *Service) MaxSize() int64 { return MaxSize }

// team is the part of the storage that holds one organisation's files.
func (s *Service) team(orgID string) storage.Storage { return storage.Prefixed(s.files, orgID+"/") }

// Owner answers the organisation of an upload, or errs NotFound: the guard's first step for
// operations naming one.
func (s *Service) Owner(ctx context.Context, id string) (string, error) {
	org, err := s.db.UploadOrganization(ctx, id)
	return org, notFound(err)
}

// Create starts an upload of size bytes for the actor's organisation (the one the metadata
// names, which the caller authorized). Too large is errs TooLarge; an empty file or a name the
// purpose refuses, errs Unprocessable.
func (s *Service) Create(ctx context.Context, a auth.Actor, size int64, m Metadata) (File, error) {
	r := rules[m.Purpose]
	if size > r.maxSize {
		return File{}, errs.New(errs.TooLarge, fmt.Sprintf("The file has %d bytes; %s may have at most %d (50 MiB).", size, r.label, r.maxSize))
	}
	if size <= 0 {
		return File{}, errs.UnprocessableErr("The file is empty.")
	}
	declared, err := r.declared(m.FileName, m.FileType)
	if err != nil {
		return File{}, err
	}
	u := store.Upload{OrganizationID: a.OrganizationID, Purpose: string(m.Purpose), FileName: m.FileName,
		FileType: "application/octet-stream", Metadata: m.Raw, Size: size, ExpiresAt: s.now().Add(ExpireAfter)}
	if declared != nil {
		u.FileType = declared.mime
	}
	if err := s.db.CreateUpload(ctx, &u); err != nil {
		return File{}, err
	}
	return fileOf(u), nil
}

// Get answers an upload of the actor's organisation; an unknown or expired one is errs
// NotFound.
func (s *Service) Get(ctx context.Context, a auth.Actor, id string) (File, error) {
	u, err := s.upload(ctx, a.OrganizationID, id)
	return fileOf(u), err
}

func (s *Service) upload(ctx context.Context, orgID, id string) (store.Upload, error) {
	u, err := s.db.UploadByID(ctx, orgID, id)
	if err != nil {
		return u, notFound(err)
	}
	if _, clients := rules[Purpose(u.Purpose)]; !clients {
		// Files the server stores itself (call recordings) are served through their own
		// feature, never read, appended to or deleted through the uploads API.
		return u, errs.NotFoundf("Upload")
	}
	if u.CompletedAt == nil && !s.now().Before(u.ExpiresAt) {
		return u, errs.NotFoundf("Upload")
	}
	return u, nil
}

// Append adds what body yields to the upload, which must be at offset (errs Conflict
// otherwise). More bytes than the upload lacks is errs TooLarge and keeps nothing; a body cut
// off keeps what arrived. Once sniffLen bytes (or all) have arrived the type is checked from
// them: a wrong one is errs Unprocessable and deletes the upload. The last byte stores the
// file. It answers the upload as it now is.
func (s *Service) Append(ctx context.Context, a auth.Actor, id string, offset int64, body io.Reader) (File, error) {
	u, err := s.upload(ctx, a.OrganizationID, id)
	if err != nil {
		return File{}, err
	}
	if u.CompletedAt != nil || offset != u.Received {
		return File{}, errs.ConflictErr(fmt.Sprintf("The upload has %d of its %d bytes, not %d: ask HEAD for the offset and send from there.",
			u.Received, u.Size, offset))
	}
	c, err := spool(body, u.Size-u.Received)
	if err != nil {
		return File{}, err
	}
	defer c.remove()
	if c.size == 0 {
		return fileOf(u), nil
	}
	if c.cut != nil {
		s.log.InfoContext(ctx, "upload chunk cut off; keeping the bytes that arrived", "upload", u.ID, "bytes", c.size, "err", c.cut)
	}
	// The client may be gone; the bytes that arrived are kept all the same.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	parts, err := s.db.UploadParts(ctx, u.ID)
	if err != nil {
		return File{}, err
	}
	var t *fileType
	if u.TypeChecked {
		t = typeByMIME(u.FileType)
	}
	end := u.Received + c.size
	if !u.TypeChecked && (end >= sniffLen || end == u.Size) {
		head, err := s.head(ctx, u, parts, c)
		if err != nil {
			return File{}, err
		}
		if t, err = rules[Purpose(u.Purpose)].check(typeByMIME(u.FileType), head); err != nil {
			s.discard(ctx, u)
			return File{}, err
		}
	}
	if end == u.Size {
		if t == nil {
			return File{}, fmt.Errorf("upload %s: complete with an unknown type %q", u.ID, u.FileType)
		}
		return s.complete(ctx, u, parts, c, t)
	}
	return s.addPart(ctx, u, c, t)
}

// addPart stores a chunk as an object of its own and moves the upload past it.
func (s *Service) addPart(ctx context.Context, u store.Upload, c *chunk, t *fileType) (File, error) {
	team := s.team(u.OrganizationID)
	p := store.UploadPart{UploadID: u.ID, Offset: u.Received, Size: c.size,
		ObjectKey: fmt.Sprintf("%s/part-%020d-%s", u.ID, u.Received, nonce())}
	if err := team.Put(ctx, p.ObjectKey, c.reader(), c.size); err != nil {
		return File{}, err
	}
	fileType, checked := u.FileType, false
	if t != nil {
		fileType, checked = t.mime, true
	}
	if err := s.db.AddUploadPart(ctx, u.OrganizationID, &p, fileType, checked); err != nil {
		s.deleteObject(ctx, team, p.ObjectKey)
		return File{}, moved(err, u)
	}
	u.Received, u.FileType, u.TypeChecked = u.Received+c.size, fileType, checked
	return fileOf(u), nil
}

// complete writes the whole file (the chunks stored so far, then the last one) as one object
// and records the upload finished.
func (s *Service) complete(ctx context.Context, u store.Upload, parts []store.UploadPart, c *chunk, t *fileType) (File, error) {
	team := s.team(u.OrganizationID)
	key := u.ID + "/file-" + nonce()
	r, closeAll := s.concat(ctx, team, parts, c)
	err := team.Put(ctx, key, r, u.Size)
	closeAll()
	if err != nil {
		return File{}, err
	}
	if t == docx {
		if ok, err := s.storedDOCX(ctx, team, key, u.Size); err != nil || !ok {
			s.discard(ctx, u)
			if err != nil {
				return File{}, err
			}
			return File{}, errs.UnprocessableErr("The file's content is a ZIP archive, not " + docx.name + ".")
		}
	}
	at := s.now()
	if err := s.db.CompleteUpload(ctx, u.OrganizationID, u.ID, u.Received, key, t.mime, at); err != nil {
		s.deleteObject(ctx, team, key)
		return File{}, moved(err, u)
	}
	for _, p := range parts {
		s.deleteObject(ctx, team, p.ObjectKey)
	}
	u.Received, u.FileType, u.ObjectKey, u.CompletedAt = u.Size, t.mime, key, &at
	return fileOf(u), nil
}

func (s *Service) storedDOCX(ctx context.Context, team storage.Storage, key string, size int64) (bool, error) {
	o, err := team.Open(ctx, key)
	if err != nil {
		return false, err
	}
	defer o.Close()
	return isDOCX(o, size), nil
}

// head reads the file's first sniffLen bytes: the chunks stored so far, then the new one.
func (s *Service) head(ctx context.Context, u store.Upload, parts []store.UploadPart, c *chunk) ([]byte, error) {
	r, closeAll := s.concat(ctx, s.team(u.OrganizationID), parts, c)
	defer closeAll()
	return io.ReadAll(io.LimitReader(r, sniffLen))
}

// concat reads the stored chunks in order, then c, opening each object when it is reached.
// Call the func to close what was opened.
func (s *Service) concat(ctx context.Context, team storage.Storage, parts []store.UploadPart, c *chunk) (io.Reader, func()) {
	readers := make([]io.Reader, 0, len(parts)+1)
	objects := make([]*lazyObject, 0, len(parts))
	for _, p := range parts {
		o := &lazyObject{ctx: ctx, st: team, key: p.ObjectKey}
		objects = append(objects, o)
		readers = append(readers, o)
	}
	readers = append(readers, c.reader())
	return io.MultiReader(readers...), func() {
		for _, o := range objects {
			o.close()
		}
	}
}

// lazyObject reads an object, opening it on the first read.
type lazyObject struct {
	ctx context.Context
	st  storage.Storage
	key string
	o   storage.Object
}

func (l *lazyObject) Read(p []byte) (int, error) {
	if l.o == nil {
		o, err := l.st.Open(l.ctx, l.key)
		if err != nil {
			return 0, err
		}
		l.o = o
	}
	return l.o.Read(p)
}

func (l *lazyObject) close() {
	if l.o != nil {
		l.o.Close()
	}
}

// discard deletes an upload refused for its content, bytes included.
func (s *Service) discard(ctx context.Context, u store.Upload) {
	if err := s.db.DeleteUpload(ctx, u.OrganizationID, u.ID); err != nil {
		s.log.ErrorContext(ctx, "a refused upload could not be deleted", "upload", u.ID, "err", err)
		return
	}
	s.removeBytes(ctx, store.UploadDeletion{OrganizationID: u.OrganizationID, UploadID: u.ID})
}

// Delete cancels an upload or deletes a finished one (tus termination), bytes included; one
// something uses is errs Conflict.
func (s *Service) Delete(ctx context.Context, a auth.Actor, id string) error {
	u, err := s.upload(ctx, a.OrganizationID, id)
	if err != nil {
		return err
	}
	err = s.db.DeleteUpload(ctx, u.OrganizationID, u.ID)
	switch {
	case errors.Is(err, store.ErrReference):
		return errs.ConflictErr("This file is used (by a knowledge file, an agent or a voice profile); delete that first.")
	case err != nil:
		return notFound(err)
	}
	s.removeBytes(ctx, store.UploadDeletion{OrganizationID: u.OrganizationID, UploadID: u.ID})
	return nil
}

// removeBytes removes a deleted upload's objects; when it fails the cleanup job tries again.
func (s *Service) removeBytes(ctx context.Context, d store.UploadDeletion) {
	if err := s.removeDeleted(ctx, d); err != nil {
		s.log.WarnContext(ctx, "the bytes of a deleted upload are left for the cleanup job", "upload", d.UploadID, "err", err)
	}
}

func (s *Service) removeDeleted(ctx context.Context, d store.UploadDeletion) error {
	if err := s.team(d.OrganizationID).DeletePrefix(ctx, d.UploadID+"/"); err != nil {
		return err
	}
	return s.db.ForgetUploadDeletion(ctx, d)
}

func (s *Service) deleteObject(ctx context.Context, team storage.Storage, key string) {
	if err := team.Delete(ctx, key); err != nil {
		s.log.WarnContext(ctx, "an upload's object was not deleted", "key", key, "err", err)
	}
}

// Location is the URL of an upload, where tus clients send its bytes.
func (s *Service) Location(f File) string {
	return s.baseURL + "/v1/uploads/" + url.PathEscape(f.ID)
}

// URL is a fresh signed URL of a team's upload, valid LinkTTL: the fileUrl clients pass to
// other operations and download from. It is signed without a lookup, so listing many files
// costs no query; the URL of an upload that is not finished, or gone, answers 404. (The error
// is for callers' interfaces, such as agents.Files; signing does not fail.)
func (s *Service) URL(_ context.Context, _ string, id string) (string, error) {
	return s.baseURL + "/v1/files/" + url.PathEscape(id) + "?token=" + url.QueryEscape(s.sign.token(id, s.now().Add(LinkTTL))), nil
}

// Download opens the finished file a signed URL names. A wrong or expired token, or a file
// that is not there (unknown, unfinished), is errs NotFound: nothing tells them apart.
func (s *Service) Download(ctx context.Context, id, token string) (storage.Object, File, error) {
	if !s.sign.valid(id, token, s.now()) {
		return nil, File{}, errs.NotFoundf("File")
	}
	u, err := s.db.CompletedUpload(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, File{}, errs.NotFoundf("File")
		}
		return nil, File{}, err
	}
	return s.open(ctx, u)
}

func (s *Service) open(ctx context.Context, u store.Upload) (storage.Object, File, error) {
	o, err := s.team(u.OrganizationID).Open(ctx, u.ObjectKey)
	if err != nil {
		return nil, File{}, fmt.Errorf("upload %s: %w", u.ID, err)
	}
	return o, fileOf(u), nil
}

// FileByURL resolves a fileUrl given to another operation to a finished upload of the
// organisation. Another team's upload, an unfinished or unknown one, or a URL that is not a
// file URL of this server with a valid token, is errs NotFound; an upload of another purpose
// than those given (any, when none is) is errs Unprocessable.
func (s *Service) FileByURL(ctx context.Context, orgID, fileURL string, purposes ...Purpose) (File, error) {
	id, token, ok := fileLink(fileURL)
	if !ok || !s.sign.valid(id, token, s.now()) {
		return File{}, errs.NotFoundf("Upload")
	}
	u, err := s.db.UploadByID(ctx, orgID, id)
	if err != nil {
		return File{}, notFound(err)
	}
	if u.CompletedAt == nil {
		return File{}, errs.NotFoundf("Upload")
	}
	if len(purposes) > 0 && !slices.Contains(purposes, Purpose(u.Purpose)) {
		return File{}, errs.UnprocessableErr(fmt.Sprintf("This file was uploaded as %s; here it must be %s.", u.Purpose, purposeList(purposes)))
	}
	return fileOf(u), nil
}

// Open reads a finished upload of the organisation (errs NotFound otherwise). Close it.
func (s *Service) Open(ctx context.Context, orgID, id string) (storage.Object, File, error) {
	u, err := s.db.UploadByID(ctx, orgID, id)
	if err != nil {
		return nil, File{}, notFound(err)
	}
	if u.CompletedAt == nil {
		return nil, File{}, errs.NotFoundf("Upload")
	}
	return s.open(ctx, u)
}

// Use records that by ("<kind>:<id>" of the entity) uses a finished upload of the
// organisation, which is then never cleaned up nor deleted by DELETE /v1/uploads/{id}. It joins
// the transaction in ctx; calling it again changes nothing. An upload that is not a finished
// one of the organisation is errs NotFound.
func (s *Service) Use(ctx context.Context, orgID, id, by string) error {
	return notFound(s.db.UseUpload(ctx, orgID, id, by))
}

// Release records that by no longer uses the upload; once nothing does, it is deleted after
// UnusedFor. Releasing what was not used does nothing.
func (s *Service) Release(ctx context.Context, orgID, id, by string) error {
	return s.db.ReleaseUpload(ctx, orgID, id, by, s.now())
}

// Discard records that by no longer uses the upload and, when nothing else does, deletes it
// at once instead of after UnusedFor (for an entity whose deletion promises its file goes
// too). It joins the transaction in ctx; after that commits, Purge removes the bytes (or the
// cleanup job does, should Purge fail). It answers whether the upload was deleted; an upload
// something else still uses, or one already gone, is left alone.
func (s *Service) Discard(ctx context.Context, orgID, id, by string) (bool, error) {
	if err := s.Release(ctx, orgID, id, by); err != nil {
		return false, err
	}
	err := s.db.DeleteUpload(ctx, orgID, id)
	if errors.Is(err, store.ErrReference) || errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Purge removes the bytes of an upload Discard deleted, once its transaction committed.
func (s *Service) Purge(ctx context.Context, orgID, id string) {
	s.removeBytes(ctx, store.UploadDeletion{OrganizationID: orgID, UploadID: id})
}

// notFound turns store.ErrNotFound into the domain's "Upload not found.".
func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Upload")
	}
	return err
}

// moved explains why a chunk could not be recorded: another request moved the upload first,
// or it is gone.
func moved(err error, u store.Upload) error {
	if errors.Is(err, store.ErrConflict) {
		return errs.ConflictErr(fmt.Sprintf("Another request sent bytes of this upload at offset %d first: ask HEAD for the offset and resume.", u.Received))
	}
	return notFound(err)
}

func purposeList(ps []Purpose) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = string(p)
	}
	return orList(names)
}

func nonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// chunk is a request's body, kept in a temporary file until it is stored.
type chunk struct {
	f    *os.File
	size int64
	// cut is why the body ended early (a broken connection, a read timeout), or nil.
	cut error
}

// spool reads body into a temporary file, at most room bytes: more is errs TooLarge.
func spool(body io.Reader, room int64) (*chunk, error) {
	f, err := os.CreateTemp("", "betty-chunk-*")
	if err != nil {
		return nil, err
	}
	c := &chunk{f: f}
	r := &readErr{r: body}
	c.size, err = io.Copy(f, io.LimitReader(r, room+1))
	switch {
	case err != nil && err != r.err:
		c.remove()
		return nil, err // the temporary file, not the client
	case c.size > room:
		c.remove()
		return nil, errs.New(errs.TooLarge, fmt.Sprintf("This request carries more bytes than the %d the upload lacks.", room))
	}
	c.cut = r.err
	return c, nil
}

func (c *chunk) reader() io.Reader { return io.NewSectionReader(c.f, 0, c.size) }

func (c *chunk) remove() {
	c.f.Close()
	os.Remove(c.f.Name())
}

// readErr remembers the error its reader answered, to tell it from the writer's.
type readErr struct {
	r   io.Reader
	err error
}

func (e *readErr) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}
