package store

import (
	"context"
	"errors"
	"strings"
	"time"
)

// KnowledgeFileStatus is where a knowledge base entry stands.
type KnowledgeFileStatus string

const (
	KnowledgeParsing KnowledgeFileStatus = "parsing"
	KnowledgeSuccess KnowledgeFileStatus = "success"
	KnowledgeError   KnowledgeFileStatus = "error"
)

// KnowledgeFAQ is the type of a FAQ entry (files have their format as type).
const KnowledgeFAQ = "faq"

// KnowledgeBase is a knowledge base with, as listed, its campaign link and entry count.
type KnowledgeBase struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	Name           string    `db:"name"`
	NameKey        string    `db:"name_key"`
	CampaignID     *string   `db:"campaign_id"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
	// Active and FileCount are read with joins (not columns): whether it is the active one of
	// CampaignID, and how many entries it has.
	Active    bool `db:"active"`
	FileCount int  `db:"file_count"`
}

// KnowledgeBaseLink links a knowledge base to a campaign; at most one per campaign is active.
type KnowledgeBaseLink struct {
	ID              string    `db:"id"`
	OrganizationID  string    `db:"organization_id"`
	KnowledgeBaseID string    `db:"knowledge_base_id"`
	CampaignID      string    `db:"campaign_id"`
	Active          bool      `db:"active"`
	CreatedAt       time.Time `db:"created_at"`
	UpdatedAt       time.Time `db:"updated_at"`
}

// KnowledgeFile is an entry of a knowledge base: an uploaded file or a FAQ.
type KnowledgeFile struct {
	ID              string              `db:"id"`
	OrganizationID  string              `db:"organization_id"`
	KnowledgeBaseID string              `db:"knowledge_base_id"`
	Type            string              `db:"type"`
	Status          KnowledgeFileStatus `db:"status"`
	Name            string              `db:"name"`
	UploadID        *string             `db:"upload_id"`
	FileName        *string             `db:"file_name"`
	Size            int64               `db:"size"`
	Pages           *int                `db:"pages"`
	FAQ             *string             `db:"faq"`
	ErrorMessage    *string             `db:"error_message"`
	CreatedAt       time.Time           `db:"created_at"`
	UpdatedAt       time.Time           `db:"updated_at"`
}

// Passage is a piece of an entry's text as indexed: Page is where it starts (nil without pages).
type Passage struct {
	Page    *int
	Content string
}

// PassageHit is a passage a search found.
type PassageHit struct {
	FileID          string  `db:"file_id"`
	KnowledgeBaseID string  `db:"knowledge_base_id"`
	Name            string  `db:"name"`
	Type            string  `db:"type"`
	Page            *int    `db:"page"`
	Content         string  `db:"content"`
	Snippet         string  `db:"snippet"`
	Rank            float64 `db:"rank"`
}

const (
	knowledgeBaseColumns = `id, organization_id, name, name_key, campaign_id, created_at, updated_at`
	knowledgeFileColumns = `id, organization_id, knowledge_base_id, type, status, name, upload_id, file_name, size, pages, faq,
	error_message, created_at, updated_at`
	knowledgeLinkColumns = `id, organization_id, knowledge_base_id, campaign_id, active, created_at, updated_at`
	kbFileCount          = `(SELECT COUNT(*) FROM knowledge_files f WHERE f.knowledge_base_id = kb.id) AS file_count`
	// kbOwnSelect reads knowledge bases with the link to the campaign each was created for.
	kbOwnSelect = `SELECT kb.id, kb.organization_id, kb.name, kb.name_key, kb.campaign_id, kb.created_at, kb.updated_at,
	COALESCE(l.active, FALSE) AS active, ` + kbFileCount + ` FROM knowledge_bases kb
	LEFT JOIN knowledge_base_links l ON l.knowledge_base_id = kb.id AND l.campaign_id = kb.campaign_id`
)

// KnowledgeNameKey is how knowledge base names are compared: without case.
func KnowledgeNameKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// CreateKnowledgeBase inserts kb; ErrConflict when the team has one of that name.
func (db *DB) CreateKnowledgeBase(ctx context.Context, kb *KnowledgeBase) error {
	kb.ID = NewID()
	kb.NameKey = KnowledgeNameKey(kb.Name)
	kb.CreatedAt = now()
	kb.UpdatedAt = kb.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO knowledge_bases (`+knowledgeBaseColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		kb.ID, kb.OrganizationID, kb.Name, kb.NameKey, kb.CampaignID, kb.CreatedAt, kb.UpdatedAt)
	return err
}

// KnowledgeBaseByID reads a team's knowledge base with its own campaign link and entry count.
func (db *DB) KnowledgeBaseByID(ctx context.Context, orgID, id string) (KnowledgeBase, error) {
	var kb KnowledgeBase
	err := db.get(ctx, db.read(ctx), &kb, kbOwnSelect+` WHERE kb.organization_id = ? AND kb.id = ?`, orgID, id)
	return kb, err
}

// KnowledgeBaseOrganization answers the organisation of a knowledge base, or ErrNotFound.
func (db *DB) KnowledgeBaseOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM knowledge_bases WHERE id = ?`, id)
	return org, err
}

// RenameKnowledgeBase renames a team's knowledge base; ErrNotFound, or ErrConflict when
// another of the team has the name.
func (db *DB) RenameKnowledgeBase(ctx context.Context, orgID, id, name string) error {
	return db.one(ctx, `UPDATE knowledge_bases SET name = ?, name_key = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		name, KnowledgeNameKey(name), now(), orgID, id)
}

// DeleteKnowledgeBase deletes a team's knowledge base with its links, entries and passages.
func (db *DB) DeleteKnowledgeBase(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `DELETE FROM knowledge_bases WHERE organization_id = ? AND id = ?`, orgID, id)
}

// ListKnowledgeBases lists a page of a team's knowledge bases by name, and how many there are.
// With campaignID only those linked to that campaign, with Active and CampaignID of that link.
func (db *DB) ListKnowledgeBases(ctx context.Context, orgID, campaignID string, limit, offset int) ([]KnowledgeBase, int, error) {
	var total int
	out := []KnowledgeBase{}
	if campaignID == "" {
		if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM knowledge_bases WHERE organization_id = ?`, orgID); err != nil {
			return nil, 0, err
		}
		err := db.selectAll(ctx, db.read(ctx), &out, kbOwnSelect+` WHERE kb.organization_id = ?
			ORDER BY kb.name_key, kb.id LIMIT ? OFFSET ?`, orgID, limit, offset)
		return out, total, err
	}
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM knowledge_base_links WHERE organization_id = ? AND campaign_id = ?`,
		orgID, campaignID); err != nil {
		return nil, 0, err
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT kb.id, kb.organization_id, kb.name, kb.name_key, l.campaign_id, kb.created_at,
		kb.updated_at, l.active, `+kbFileCount+` FROM knowledge_bases kb
		JOIN knowledge_base_links l ON l.knowledge_base_id = kb.id AND l.campaign_id = ?
		WHERE kb.organization_id = ? ORDER BY kb.name_key, kb.id LIMIT ? OFFSET ?`, campaignID, orgID, limit, offset)
	return out, total, err
}

// ActivateKnowledgeBase makes a knowledge base the active one of a campaign (both the team's),
// linking it when it was not, and every other link of the campaign inactive, in one
// transaction.
func (db *DB) ActivateKnowledgeBase(ctx context.Context, orgID, kbID, campaignID string) (KnowledgeBaseLink, error) {
	var l KnowledgeBaseLink
	err := db.InTx(ctx, func(ctx context.Context) error {
		at := now()
		if _, err := db.exec(ctx, `UPDATE knowledge_base_links SET active = FALSE, updated_at = ?
			WHERE organization_id = ? AND campaign_id = ? AND knowledge_base_id <> ? AND active`, at, orgID, campaignID, kbID); err != nil {
			return err
		}
		n, err := db.exec(ctx, `UPDATE knowledge_base_links SET active = TRUE, updated_at = ?
			WHERE organization_id = ? AND campaign_id = ? AND knowledge_base_id = ? AND NOT active`, at, orgID, campaignID, kbID)
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := db.exec(ctx, `INSERT INTO knowledge_base_links (`+knowledgeLinkColumns+`) VALUES (?, ?, ?, ?, TRUE, ?, ?)
				ON CONFLICT (campaign_id, knowledge_base_id) DO NOTHING`, NewID(), orgID, kbID, campaignID, at, at); err != nil {
				return err
			}
		}
		l, err = db.knowledgeLink(ctx, orgID, kbID, campaignID)
		return err
	})
	return l, err
}

// LinkKnowledgeBase links a knowledge base to a campaign, active when the campaign has no
// active one.
func (db *DB) LinkKnowledgeBase(ctx context.Context, orgID, kbID, campaignID string) error {
	at := now()
	_, err := db.exec(ctx, `INSERT INTO knowledge_base_links (`+knowledgeLinkColumns+`)
		SELECT ?, ?, ?, ?, NOT EXISTS (SELECT 1 FROM knowledge_base_links WHERE campaign_id = ? AND active), ?, ?`,
		NewID(), orgID, kbID, campaignID, campaignID, at, at)
	return err
}

// DeactivateKnowledgeBase makes a knowledge base inactive for a campaign; ErrNotFound when it
// was never linked to it.
func (db *DB) DeactivateKnowledgeBase(ctx context.Context, orgID, kbID, campaignID string) (KnowledgeBaseLink, error) {
	var l KnowledgeBaseLink
	err := db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `UPDATE knowledge_base_links SET active = FALSE, updated_at = ?
			WHERE organization_id = ? AND campaign_id = ? AND knowledge_base_id = ? AND active`, now(), orgID, campaignID, kbID); err != nil {
			return err
		}
		var err error
		l, err = db.knowledgeLink(ctx, orgID, kbID, campaignID)
		return err
	})
	return l, err
}

func (db *DB) knowledgeLink(ctx context.Context, orgID, kbID, campaignID string) (KnowledgeBaseLink, error) {
	var l KnowledgeBaseLink
	err := db.get(ctx, db.read(ctx), &l, `SELECT `+knowledgeLinkColumns+` FROM knowledge_base_links
		WHERE organization_id = ? AND campaign_id = ? AND knowledge_base_id = ?`, orgID, campaignID, kbID)
	return l, err
}

// ActiveKnowledgeBase answers the id of a campaign's active knowledge base; ErrNotFound when
// it has none.
func (db *DB) ActiveKnowledgeBase(ctx context.Context, orgID, campaignID string) (string, error) {
	var id string
	err := db.get(ctx, db.read(ctx), &id, `SELECT knowledge_base_id FROM knowledge_base_links
		WHERE organization_id = ? AND campaign_id = ? AND active`, orgID, campaignID)
	return id, err
}

// CreateKnowledgeFile inserts an entry.
func (db *DB) CreateKnowledgeFile(ctx context.Context, f *KnowledgeFile) error {
	f.ID = NewID()
	f.CreatedAt = now()
	f.UpdatedAt = f.CreatedAt
	_, err := db.exec(ctx, `INSERT INTO knowledge_files (`+knowledgeFileColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.OrganizationID, f.KnowledgeBaseID, f.Type, f.Status, f.Name, f.UploadID, f.FileName, f.Size, f.Pages, f.FAQ,
		f.ErrorMessage, f.CreatedAt, f.UpdatedAt)
	return err
}

// KnowledgeFileByID reads an entry of a team.
func (db *DB) KnowledgeFileByID(ctx context.Context, orgID, id string) (KnowledgeFile, error) {
	var f KnowledgeFile
	err := db.get(ctx, db.read(ctx), &f, `SELECT `+knowledgeFileColumns+` FROM knowledge_files WHERE organization_id = ? AND id = ?`, orgID, id)
	return f, err
}

// KnowledgeFileOrganization answers the organisation of an entry, or ErrNotFound.
func (db *DB) KnowledgeFileOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM knowledge_files WHERE id = ?`, id)
	return org, err
}

// KnowledgeFileByUpload answers the oldest file of a team added from an upload.
func (db *DB) KnowledgeFileByUpload(ctx context.Context, orgID, uploadID string) (KnowledgeFile, error) {
	var f KnowledgeFile
	err := db.get(ctx, db.read(ctx), &f, `SELECT `+knowledgeFileColumns+` FROM knowledge_files
		WHERE organization_id = ? AND upload_id = ? ORDER BY created_at, id LIMIT 1`, orgID, uploadID)
	return f, err
}

// ListKnowledgeFiles lists a page of a knowledge base's entries newest first, and how many.
func (db *DB) ListKnowledgeFiles(ctx context.Context, orgID, kbID string, limit, offset int) ([]KnowledgeFile, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM knowledge_files WHERE organization_id = ? AND knowledge_base_id = ?`,
		orgID, kbID); err != nil {
		return nil, 0, err
	}
	out := []KnowledgeFile{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+knowledgeFileColumns+` FROM knowledge_files
		WHERE organization_id = ? AND knowledge_base_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, orgID, kbID, limit, offset)
	return out, total, err
}

// UploadsOfKnowledgeBase lists the entries of a knowledge base that came from uploads.
func (db *DB) UploadsOfKnowledgeBase(ctx context.Context, orgID, kbID string) ([]KnowledgeFile, error) {
	out := []KnowledgeFile{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+knowledgeFileColumns+` FROM knowledge_files
		WHERE organization_id = ? AND knowledge_base_id = ? AND upload_id IS NOT NULL`, orgID, kbID)
	return out, err
}

// UpdateKnowledgeFAQ rewrites a FAQ entry's name and text (and size).
func (db *DB) UpdateKnowledgeFAQ(ctx context.Context, f *KnowledgeFile) error {
	f.UpdatedAt = now()
	return db.one(ctx, `UPDATE knowledge_files SET name = ?, faq = ?, size = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND type = ?`,
		f.Name, f.FAQ, f.Size, f.UpdatedAt, f.OrganizationID, f.ID, KnowledgeFAQ)
}

// DeleteKnowledgeFile deletes an entry of a team with its passages.
func (db *DB) DeleteKnowledgeFile(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `DELETE FROM knowledge_files WHERE organization_id = ? AND id = ?`, orgID, id)
}

// ReplacePassages replaces the indexed passages of an entry of a team.
func (db *DB) ReplacePassages(ctx context.Context, orgID, kbID, fileID string, passages []Passage) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `DELETE FROM knowledge_passages WHERE organization_id = ? AND file_id = ?`, orgID, fileID); err != nil {
			return err
		}
		// In batches: one round trip per 100 passages rather than per passage.
		const batch = 100
		for start := 0; start < len(passages); start += batch {
			rows := passages[start:min(start+batch, len(passages))]
			values := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?), ", len(rows)), ", ")
			args := make([]any, 0, 6*len(rows))
			for i, p := range rows {
				args = append(args, orgID, kbID, fileID, start+i, p.Page, p.Content)
			}
			if _, err := db.exec(ctx, `INSERT INTO knowledge_passages (organization_id, knowledge_base_id, file_id, seq, page, content)
				VALUES `+values, args...); err != nil {
				return err
			}
		}
		return nil
	})
}

// FinishKnowledgeFile records the end of parsing a file that is still parsing: success with
// its passages and pages, or error with a message. ErrNotFound when the file is gone or
// no longer parsing (it was finished already).
func (db *DB) FinishKnowledgeFile(ctx context.Context, f KnowledgeFile, passages []Passage) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		if err := db.one(ctx, `UPDATE knowledge_files SET status = ?, pages = ?, error_message = ?, updated_at = ?
			WHERE organization_id = ? AND id = ? AND status = ?`, f.Status, f.Pages, f.ErrorMessage, now(),
			f.OrganizationID, f.ID, KnowledgeParsing); err != nil {
			return err
		}
		if f.Status != KnowledgeSuccess {
			passages = nil
		}
		return db.ReplacePassages(ctx, f.OrganizationID, f.KnowledgeBaseID, f.ID, passages)
	})
}

// SetAgentKnowledgeFiles replaces the knowledge files linked to an agent of a team.
func (db *DB) SetAgentKnowledgeFiles(ctx context.Context, orgID, agentID string, fileIDs []string) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		if _, err := db.exec(ctx, `DELETE FROM agent_knowledge_files WHERE organization_id = ? AND agent_id = ?`, orgID, agentID); err != nil {
			return err
		}
		at := now()
		for _, id := range fileIDs {
			if _, err := db.exec(ctx, `INSERT INTO agent_knowledge_files (organization_id, agent_id, knowledge_file_id, created_at)
				VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, orgID, agentID, id, at); err != nil {
				return err
			}
		}
		return nil
	})
}

// agentFilesWhere selects the files an agent answers from: those linked to it and the files
// of its campaign's active knowledge base (args: org, agent, org, agent).
const agentFilesWhere = `f.organization_id = ? AND f.type <> 'faq' AND (
	f.id IN (SELECT k.knowledge_file_id FROM agent_knowledge_files k WHERE k.agent_id = ?)
	OR f.knowledge_base_id IN (SELECT l.knowledge_base_id FROM knowledge_base_links l
		JOIN agent_profiles a ON a.campaign_id = l.campaign_id WHERE a.organization_id = ? AND a.id = ? AND l.active)
	OR f.knowledge_base_id IN (SELECT a.knowledge_base_id FROM agent_profiles a WHERE a.organization_id = ? AND a.id = ?))`

// AgentKnowledgeFiles lists a page of the files an agent of a team answers from, newest first,
// and how many there are.
func (db *DB) AgentKnowledgeFiles(ctx context.Context, orgID, agentID string, limit, offset int) ([]KnowledgeFile, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM knowledge_files f WHERE `+agentFilesWhere,
		orgID, agentID, orgID, agentID, orgID, agentID); err != nil {
		return nil, 0, err
	}
	out := []KnowledgeFile{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+prefixed("f.", knowledgeFileColumns)+` FROM knowledge_files f WHERE `+agentFilesWhere+`
		ORDER BY f.created_at DESC, f.id DESC LIMIT ? OFFSET ?`, orgID, agentID, orgID, agentID, orgID, agentID, limit, offset)
	return out, total, err
}

// SearchScope is what a search looks in: one knowledge base, or what an agent answers from.
type SearchScope struct {
	KnowledgeBaseID string
	AgentID         string
}

// SearchPassages answers the passages of a team in scope matching any of terms (plain words),
// best first. Both dialects stem English words; the snippet wraps the words found in **.
func (db *DB) SearchPassages(ctx context.Context, orgID string, scope SearchScope, terms []string, limit int) ([]PassageHit, error) {
	if len(terms) == 0 || (scope.KnowledgeBaseID == "") == (scope.AgentID == "") {
		return nil, errors.New("store: SearchPassages needs terms and exactly one scope")
	}
	var where string
	args := []any{}
	if scope.KnowledgeBaseID != "" {
		where, args = `p.knowledge_base_id = ?`, append(args, scope.KnowledgeBaseID)
	} else {
		where = `(p.file_id IN (SELECT k.knowledge_file_id FROM agent_knowledge_files k WHERE k.organization_id = ? AND k.agent_id = ?)
			OR p.knowledge_base_id IN (SELECT l.knowledge_base_id FROM knowledge_base_links l
				JOIN agent_profiles a ON a.campaign_id = l.campaign_id WHERE a.organization_id = ? AND a.id = ? AND l.active)
			OR p.knowledge_base_id IN (SELECT a.knowledge_base_id FROM agent_profiles a WHERE a.organization_id = ? AND a.id = ?))`
		args = append(args, orgID, scope.AgentID, orgID, scope.AgentID, orgID, scope.AgentID)
	}
	out := []PassageHit{}
	if db.dialect == Postgres {
		// websearch_to_tsquery never refuses its input, whatever letters the terms hold.
		q := strings.Join(terms, " or ")
		err := db.selectAll(ctx, db.read(ctx), &out, `SELECT p.file_id, p.knowledge_base_id, f.name, f.type, p.page, p.content,
			ts_headline('english', p.content, q, 'StartSel=**, StopSel=**, MinWords=12, MaxWords=30, MaxFragments=2, FragmentDelimiter=" … "') AS snippet,
			ts_rank_cd(p.tsv, q) AS rank
			FROM knowledge_passages p JOIN knowledge_files f ON f.id = p.file_id, websearch_to_tsquery('english', ?) q
			WHERE p.tsv @@ q AND p.organization_id = ? AND `+where+` ORDER BY rank DESC, p.id LIMIT ?`,
			append(append([]any{q, orgID}, args...), limit)...)
		return out, err
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + t + `"`
	}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT p.file_id, p.knowledge_base_id, f.name, f.type, p.page, p.content,
		snippet(knowledge_passages_fts, 0, '**', '**', '…', 24) AS snippet, -bm25(knowledge_passages_fts) AS rank
		FROM knowledge_passages_fts JOIN knowledge_passages p ON p.id = knowledge_passages_fts.rowid
		JOIN knowledge_files f ON f.id = p.file_id
		WHERE knowledge_passages_fts MATCH ? AND p.organization_id = ? AND `+where+`
		ORDER BY bm25(knowledge_passages_fts), p.id LIMIT ?`,
		append(append([]any{strings.Join(quoted, " OR "), orgID}, args...), limit)...)
	return out, err
}

// LinkedKnowledgeFilesOfAgents answers, by agent id, the knowledge files linked to each of
// these agents of a team, newest first.
func (db *DB) LinkedKnowledgeFilesOfAgents(ctx context.Context, orgID string, agentIDs []string) (map[string][]KnowledgeFile, error) {
	out := make(map[string][]KnowledgeFile, len(agentIDs))
	if len(agentIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		AgentID string `db:"agent_id"`
		KnowledgeFile
	}
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT k.agent_id, `+prefixed("f.", knowledgeFileColumns)+`
		FROM agent_knowledge_files k JOIN knowledge_files f ON f.id = k.knowledge_file_id
		WHERE k.organization_id = ? AND k.agent_id IN (`+placeholders(len(agentIDs))+`) ORDER BY f.created_at DESC, f.id DESC`,
		append([]any{orgID}, anys(agentIDs)...)...); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.AgentID] = append(out[r.AgentID], r.KnowledgeFile)
	}
	return out, nil
}

// CopyAgentKnowledgeFiles links to agent to the knowledge files linked to agent from.
func (db *DB) CopyAgentKnowledgeFiles(ctx context.Context, orgID, from, to string) error {
	_, err := db.exec(ctx, `INSERT INTO agent_knowledge_files (organization_id, agent_id, knowledge_file_id, created_at)
		SELECT organization_id, ?, knowledge_file_id, ? FROM agent_knowledge_files WHERE organization_id = ? AND agent_id = ?`,
		to, now(), orgID, from)
	return err
}

// AbandonedKnowledgeFiles answers, across teams, up to limit files still parsing whose parsing
// job (River's, of kind jobKind, whose args name the file as fileId) is no longer waiting,
// running or to be retried: River gave up on it (every attempt was interrupted) and nothing
// will finish the file. A file and its job are written in one transaction, so a file still
// parsing without a live job is abandoned, never one whose job is about to start.
func (db *DB) AbandonedKnowledgeFiles(ctx context.Context, jobKind string, limit int) ([]KnowledgeFile, error) {
	fileID := `json_extract(j.args, '$.fileId')`
	if db.dialect == Postgres {
		fileID = `j.args->>'fileId'`
	}
	out := []KnowledgeFile{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+knowledgeFileColumns+` FROM knowledge_files f
		WHERE f.status = ? AND f.upload_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM river_job j
			WHERE j.kind = ? AND j.state IN ('available', 'pending', 'running', 'retryable', 'scheduled') AND `+fileID+` = f.id)
		ORDER BY f.created_at, f.id LIMIT ?`, KnowledgeParsing, jobKind, limit)
	return out, err
}
