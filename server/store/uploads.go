package store

import (
	"context"
	"errors"
	"time"
)

// Upload is a resumable upload and, once complete, the stored file. Its bytes live in the
// storage (package storage): one object per chunk (UploadPart) until it is complete, then the
// object ObjectKey.
type Upload struct {
	ID             string `db:"id"`
	OrganizationID string `db:"organization_id"`
	Purpose        string `db:"purpose"`
	FileName       string `db:"file_name"`
	// FileType is the declared MIME type until TypeChecked, then the one read from the bytes.
	FileType    string     `db:"file_type"`
	TypeChecked bool       `db:"type_checked"`
	Metadata    string     `db:"metadata"`
	Size        int64      `db:"size"`
	Received    int64      `db:"received"`
	ObjectKey   string     `db:"object_key"`
	CompletedAt *time.Time `db:"completed_at"`
	ExpiresAt   time.Time  `db:"expires_at"`
	UnusedSince *time.Time `db:"unused_since"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
}

const uploadColumns = `id, organization_id, purpose, file_name, file_type, type_checked, metadata, size, received,
	object_key, completed_at, expires_at, unused_since, created_at, updated_at`

// UploadPart is one chunk of an unfinished upload, stored as an object of its own.
type UploadPart struct {
	UploadID  string    `db:"upload_id"`
	Offset    int64     `db:"part_offset"`
	Size      int64     `db:"size"`
	ObjectKey string    `db:"object_key"`
	CreatedAt time.Time `db:"created_at"`
}

// UploadDeletion is an upload whose row is gone and whose bytes are still in the storage.
type UploadDeletion struct {
	OrganizationID string `db:"organization_id"`
	UploadID       string `db:"upload_id"`
}

// CreateUpload inserts u (its ID is made here); ExpiresAt is the caller's.
func (db *DB) CreateUpload(ctx context.Context, u *Upload) error {
	u.ID = NewID()
	u.CreatedAt = now()
	u.UpdatedAt = u.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO uploads (`+uploadColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.OrganizationID, u.Purpose, u.FileName, u.FileType, u.TypeChecked, u.Metadata, u.Size, u.Received,
		u.ObjectKey, u.CompletedAt, u.ExpiresAt.UTC(), u.UnusedSince, u.CreatedAt, u.UpdatedAt)
	return err
}

// UploadByID returns an upload of an organisation, or ErrNotFound.
func (db *DB) UploadByID(ctx context.Context, orgID, id string) (Upload, error) {
	var u Upload
	err := db.get(ctx, db.read(ctx), &u, `SELECT `+uploadColumns+` FROM uploads WHERE organization_id = ? AND id = ?`, orgID, id)
	return u, err
}

// UploadOrganization returns the organisation an upload belongs to, or ErrNotFound: the
// guard's first step for operations naming an upload.
func (db *DB) UploadOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM uploads WHERE id = ?`, id)
	return org, err
}

// CompletedUpload returns a finished upload by id alone, or ErrNotFound. Only for the public
// download, whose signed token names the upload and stands for the organisation.
func (db *DB) CompletedUpload(ctx context.Context, id string) (Upload, error) {
	var u Upload
	err := db.get(ctx, db.read(ctx), &u, `SELECT `+uploadColumns+` FROM uploads WHERE id = ? AND completed_at IS NOT NULL`, id)
	return u, err
}

// UploadParts lists the chunks of an upload in order.
func (db *DB) UploadParts(ctx context.Context, uploadID string) ([]UploadPart, error) {
	parts := []UploadPart{}
	err := db.selectAll(ctx, db.read(ctx), &parts, `SELECT upload_id, part_offset, size, object_key, created_at
		FROM upload_parts WHERE upload_id = ? ORDER BY part_offset`, uploadID)
	return parts, err
}

// AddUploadPart records a chunk received and moves the upload's offset past it, setting its
// file type, but only while the unfinished upload is still at the chunk's offset: ErrConflict
// when another request moved it first, ErrNotFound when it is gone or finished.
func (db *DB) AddUploadPart(ctx context.Context, orgID string, p *UploadPart, fileType string, typeChecked bool) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		if err := db.moveUpload(ctx, orgID, p.UploadID, p.Offset, p.Offset+p.Size,
			`file_type = ?, type_checked = ?`, fileType, typeChecked); err != nil {
			return err
		}
		p.CreatedAt = now()
		_, err := db.exec(ctx, `INSERT INTO upload_parts (upload_id, part_offset, size, object_key, created_at) VALUES (?, ?, ?, ?, ?)`,
			p.UploadID, p.Offset, p.Size, p.ObjectKey, p.CreatedAt)
		return err
	})
}

// CompleteUpload records the last chunk: the upload, at offset from, becomes the finished
// file objectKey of type fileType, unused since at, and its parts are forgotten (the caller
// removes their objects). ErrConflict and ErrNotFound as for AddUploadPart.
func (db *DB) CompleteUpload(ctx context.Context, orgID, id string, from int64, objectKey, fileType string, at time.Time) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		var size int64
		if err := db.get(ctx, db.read(ctx), &size, `SELECT size FROM uploads WHERE organization_id = ? AND id = ?`, orgID, id); err != nil {
			return err
		}
		at = at.UTC()
		if err := db.moveUpload(ctx, orgID, id, from, size,
			`object_key = ?, file_type = ?, type_checked = ?, completed_at = ?, unused_since = ?`,
			objectKey, fileType, true, at, at); err != nil {
			return err
		}
		_, err := db.exec(ctx, `DELETE FROM upload_parts WHERE upload_id = ?`, id)
		return err
	})
}

// moveUpload moves an unfinished upload's offset from → to and sets more columns, or answers
// why it cannot: ErrNotFound (gone or finished) or ErrConflict (not at from any more).
func (db *DB) moveUpload(ctx context.Context, orgID, id string, from, to int64, set string, args ...any) error {
	args = append(append([]any{to, now()}, args...), orgID, id, from)
	n, err := db.exec(ctx, `UPDATE uploads SET received = ?, updated_at = ?, `+set+`
		WHERE organization_id = ? AND id = ? AND received = ? AND completed_at IS NULL`, args...)
	if err != nil || n == 1 {
		return err
	}
	u, err := db.UploadByID(ctx, orgID, id)
	switch {
	case err != nil:
		return err
	case u.CompletedAt != nil:
		return ErrNotFound
	}
	return ErrConflict
}

// DeleteUpload deletes an upload that nothing uses (the trigger records its bytes for
// removal): ErrNotFound when the organisation has no such upload, ErrReference when something
// uses it.
func (db *DB) DeleteUpload(ctx context.Context, orgID, id string) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		err := db.one(ctx, `DELETE FROM uploads WHERE organization_id = ? AND id = ?
			AND NOT EXISTS (SELECT 1 FROM upload_refs r WHERE r.upload_id = uploads.id)`, orgID, id)
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		if _, err := db.UploadByID(ctx, orgID, id); err != nil {
			return err
		}
		return ErrReference
	})
}

// UseUpload records that ref ("agent:<id>") uses a finished upload of the organisation, once
// however often it is called: ErrNotFound when there is no such finished upload.
func (db *DB) UseUpload(ctx context.Context, orgID, id, ref string) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		// Clearing unused_since first locks the row, so a cleanup running now either deleted
		// it already (ErrNotFound) or sees it used.
		if err := db.one(ctx, `UPDATE uploads SET unused_since = NULL WHERE organization_id = ? AND id = ? AND completed_at IS NOT NULL`,
			orgID, id); err != nil {
			return err
		}
		_, err := db.exec(ctx, `INSERT INTO upload_refs (upload_id, ref, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, id, ref, now())
		return err
	})
}

// ReleaseUpload records that ref no longer uses an upload of the organisation; when nothing
// does any more, the upload is unused from at. Releasing what is not used, or an upload that is
// gone, does nothing.
func (db *DB) ReleaseUpload(ctx context.Context, orgID, id, ref string, at time.Time) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `DELETE FROM upload_refs WHERE ref = ?
			AND upload_id = (SELECT id FROM uploads WHERE organization_id = ? AND id = ?)`, ref, orgID, id); err != nil {
			return err
		}
		_, err := db.exec(ctx, `UPDATE uploads SET unused_since = ? WHERE organization_id = ? AND id = ?
			AND completed_at IS NOT NULL AND unused_since IS NULL
			AND NOT EXISTS (SELECT 1 FROM upload_refs r WHERE r.upload_id = uploads.id)`, at.UTC(), orgID, id)
		return err
	})
}

// UploadRefs lists what uses an upload.
func (db *DB) UploadRefs(ctx context.Context, id string) ([]string, error) {
	refs := []string{}
	err := db.selectAll(ctx, db.read(ctx), &refs, `SELECT ref FROM upload_refs WHERE upload_id = ? ORDER BY ref`, id)
	return refs, err
}

// DeleteStaleUploads deletes the unfinished uploads that expired before expiredBefore and the
// finished ones unused since before unusedBefore, and says how many there were. The trigger
// records their bytes for removal (UploadDeletions).
func (db *DB) DeleteStaleUploads(ctx context.Context, expiredBefore, unusedBefore time.Time) (int, error) {
	n, err := db.exec(ctx, `DELETE FROM uploads WHERE (completed_at IS NULL AND expires_at < ?)
		OR (completed_at IS NOT NULL AND unused_since < ? AND NOT EXISTS (SELECT 1 FROM upload_refs r WHERE r.upload_id = uploads.id))`,
		expiredBefore.UTC(), unusedBefore.UTC())
	return int(n), err
}

// UploadDeletions lists up to limit uploads whose bytes are still to be removed, oldest first.
func (db *DB) UploadDeletions(ctx context.Context, limit int) ([]UploadDeletion, error) {
	out := []UploadDeletion{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT organization_id, upload_id FROM upload_deletions
		ORDER BY created_at, upload_id LIMIT ?`, limit)
	return out, err
}

// ForgetUploadDeletion records that an upload's bytes are removed.
func (db *DB) ForgetUploadDeletion(ctx context.Context, d UploadDeletion) error {
	_, err := db.exec(ctx, `DELETE FROM upload_deletions WHERE organization_id = ? AND upload_id = ?`, d.OrganizationID, d.UploadID)
	return err
}
