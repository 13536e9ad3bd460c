package store

import (
	"context"
	"time"
)

// Agent is an agent profile row.
type Agent struct {
	ID             string      `db:"id"`
	OrganizationID string      `db:"organization_id"`
	CampaignID     *string     `db:"campaign_id"`
	Name           string      `db:"name"`
	Status         AgentStatus `db:"status"`
	Greeting       string      `db:"greeting"`
	Instructions   string      `db:"instructions"`
	VoiceID        *string     `db:"voice_id"`
	VoicePresetID  *string     `db:"voice_preset_id"`
	Language       string      `db:"language"`
	FAQ            string      `db:"faq"` // JSON object: question → answer
	// KnowledgeBaseID is the knowledge base the agent answers from wherever it speaks (nil:
	// none of its own; in a campaign it also answers from the campaign's active one).
	KnowledgeBaseID *string   `db:"knowledge_base_id"`
	CreatedAt       time.Time `db:"created_at"`
	UpdatedAt       time.Time `db:"updated_at"`
}

const agentColumns = `id, organization_id, campaign_id, name, status, greeting, instructions, voice_id, voice_preset_id,
	language, faq, knowledge_base_id, created_at, updated_at`

// CreateAgent inserts a, filling id and times (unless set: copies keep none of the original's).
func (db *DB) CreateAgent(ctx context.Context, a *Agent) error {
	a.ID = NewID()
	a.CreatedAt = now()
	a.UpdatedAt = a.CreatedAt
	if a.FAQ == "" {
		a.FAQ = "{}"
	}
	_, err := db.exec(ctx, `INSERT INTO agent_profiles (`+agentColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.OrganizationID, a.CampaignID, a.Name, a.Status, a.Greeting, a.Instructions, a.VoiceID, a.VoicePresetID,
		a.Language, a.FAQ, a.KnowledgeBaseID, a.CreatedAt, a.UpdatedAt)
	return err
}

// AgentByID returns a team's agent profile, or ErrNotFound.
func (db *DB) AgentByID(ctx context.Context, orgID, id string) (Agent, error) {
	var a Agent
	err := db.get(ctx, db.read(ctx), &a, `SELECT `+agentColumns+` FROM agent_profiles WHERE organization_id = ? AND id = ?`, orgID, id)
	return a, err
}

// UpdateAgent writes a team's agent profile's editable columns.
func (db *DB) UpdateAgent(ctx context.Context, a *Agent) error {
	a.UpdatedAt = now()
	return db.one(ctx, `UPDATE agent_profiles SET campaign_id = ?, name = ?, status = ?, greeting = ?, instructions = ?,
		voice_id = ?, voice_preset_id = ?, language = ?, faq = ?, knowledge_base_id = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		a.CampaignID, a.Name, a.Status, a.Greeting, a.Instructions, a.VoiceID, a.VoicePresetID, a.Language, a.FAQ,
		a.KnowledgeBaseID, a.UpdatedAt, a.OrganizationID, a.ID)
}

// DeleteAgent deletes a team's agent profile (its audio files and call configuration go with it).
func (db *DB) DeleteAgent(ctx context.Context, orgID, id string) error {
	return db.one(ctx, `DELETE FROM agent_profiles WHERE organization_id = ? AND id = ?`, orgID, id)
}

// DeactivateCampaignAgents makes every agent of a team's campaign but keep inactive.
func (db *DB) DeactivateCampaignAgents(ctx context.Context, orgID, campaignID, keep string) error {
	_, err := db.exec(ctx, `UPDATE agent_profiles SET status = ?, updated_at = ? WHERE organization_id = ? AND campaign_id = ?
		AND id <> ? AND status = ?`, AgentInactive, now(), orgID, campaignID, keep, AgentActive)
	return err
}

// ListAgents lists a team's agent profiles newest first, and how many there are.
func (db *DB) ListAgents(ctx context.Context, orgID string, limit, offset int) ([]Agent, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM agent_profiles WHERE organization_id = ?`, orgID); err != nil {
		return nil, 0, err
	}
	out := []Agent{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+agentColumns+` FROM agent_profiles WHERE organization_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, orgID, limit, offset)
	return out, total, err
}

// CampaignAgents lists the agent profiles of a team's campaign, the active one first, then
// newest first, and how many there are.
func (db *DB) CampaignAgents(ctx context.Context, orgID, campaignID string, limit, offset int) ([]Agent, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM agent_profiles WHERE organization_id = ? AND campaign_id = ?`,
		orgID, campaignID); err != nil {
		return nil, 0, err
	}
	out := []Agent{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+agentColumns+` FROM agent_profiles WHERE organization_id = ? AND campaign_id = ?
		ORDER BY CASE WHEN status = ? THEN 0 ELSE 1 END, created_at DESC, id DESC LIMIT ? OFFSET ?`,
		orgID, campaignID, AgentActive, limit, offset)
	return out, total, err
}

// AgentsOfCampaigns answers the agents of each of a team's campaigns (every one; campaigns have
// few), the active one first, by campaign id.
func (db *DB) AgentsOfCampaigns(ctx context.Context, orgID string, campaignIDs []string) (map[string][]Agent, error) {
	out := make(map[string][]Agent, len(campaignIDs))
	if len(campaignIDs) == 0 {
		return out, nil
	}
	var rows []Agent
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT `+agentColumns+` FROM agent_profiles
		WHERE organization_id = ? AND campaign_id IN (`+placeholders(len(campaignIDs))+`)
		ORDER BY CASE WHEN status = 'active' THEN 0 ELSE 1 END, created_at DESC, id DESC`,
		append([]any{orgID}, anys(campaignIDs)...)...); err != nil {
		return nil, err
	}
	for _, a := range rows {
		out[*a.CampaignID] = append(out[*a.CampaignID], a)
	}
	return out, nil
}

// AudioFile is a teaching audio file of an agent.
type AudioFile struct {
	ID             string        `db:"id"`
	OrganizationID string        `db:"organization_id"`
	AgentID        string        `db:"agent_id"`
	UploadID       string        `db:"upload_id"`
	FileName       string        `db:"file_name"`
	SummaryStatus  SummaryStatus `db:"summary_status"`
	Summary        *string       `db:"summary"`
	Error          string        `db:"error"`
	CreatedAt      time.Time     `db:"created_at"`
	UpdatedAt      time.Time     `db:"updated_at"`
}

const audioColumns = `id, organization_id, agent_id, upload_id, file_name, summary_status, summary, error, created_at, updated_at`

// CreateAudioFile inserts f, in progress.
func (db *DB) CreateAudioFile(ctx context.Context, f *AudioFile) error {
	f.ID = NewID()
	f.CreatedAt = now()
	f.UpdatedAt = f.CreatedAt
	f.SummaryStatus = SummaryInProgress
	_, err := db.exec(ctx, `INSERT INTO agent_audio_files (`+audioColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.OrganizationID, f.AgentID, f.UploadID, f.FileName, f.SummaryStatus, nil, "", f.CreatedAt, f.UpdatedAt)
	return err
}

// AudioFileByID returns a team's audio file, or ErrNotFound.
func (db *DB) AudioFileByID(ctx context.Context, orgID, id string) (AudioFile, error) {
	var f AudioFile
	err := db.get(ctx, db.read(ctx), &f, `SELECT `+audioColumns+` FROM agent_audio_files WHERE organization_id = ? AND id = ?`, orgID, id)
	return f, err
}

// FinishAudioSummary records the end of a summary: success with its text, or error with why.
func (db *DB) FinishAudioSummary(ctx context.Context, orgID, id string, status SummaryStatus, summary *string, why string) error {
	return db.one(ctx, `UPDATE agent_audio_files SET summary_status = ?, summary = ?, error = ?, updated_at = ?
		WHERE organization_id = ? AND id = ?`, status, summary, why, now(), orgID, id)
}

// AgentAudioFiles lists an agent's audio files newest first, and how many there are.
func (db *DB) AgentAudioFiles(ctx context.Context, orgID, agentID string, limit, offset int) ([]AudioFile, int, error) {
	var total int
	if err := db.get(ctx, db.read(ctx), &total, `SELECT COUNT(*) FROM agent_audio_files WHERE organization_id = ? AND agent_id = ?`,
		orgID, agentID); err != nil {
		return nil, 0, err
	}
	out := []AudioFile{}
	err := db.selectAll(ctx, db.read(ctx), &out, `SELECT `+audioColumns+` FROM agent_audio_files WHERE organization_id = ? AND agent_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, orgID, agentID, limit, offset)
	return out, total, err
}

// AudioFilesByIDs answers a team's audio files with these ids, by id.
func (db *DB) AudioFilesByIDs(ctx context.Context, orgID string, ids []string) (map[string]AudioFile, error) {
	out := make(map[string]AudioFile, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []AudioFile
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT `+audioColumns+` FROM agent_audio_files
		WHERE organization_id = ? AND id IN (`+placeholders(len(ids))+`)`, append([]any{orgID}, anys(ids)...)...); err != nil {
		return nil, err
	}
	for _, f := range rows {
		out[f.ID] = f
	}
	return out, nil
}

// AudioFilesOfAgents answers the audio files of each agent, newest first, by agent id.
func (db *DB) AudioFilesOfAgents(ctx context.Context, orgID string, agentIDs []string) (map[string][]AudioFile, error) {
	out := make(map[string][]AudioFile, len(agentIDs))
	if len(agentIDs) == 0 {
		return out, nil
	}
	var rows []AudioFile
	if err := db.selectAll(ctx, db.read(ctx), &rows, `SELECT `+audioColumns+` FROM agent_audio_files
		WHERE organization_id = ? AND agent_id IN (`+placeholders(len(agentIDs))+`) ORDER BY created_at DESC, id DESC`,
		append([]any{orgID}, anys(agentIDs)...)...); err != nil {
		return nil, err
	}
	for _, f := range rows {
		out[f.AgentID] = append(out[f.AgentID], f)
	}
	return out, nil
}

// CallConfig is a team's agent call configuration.
type CallConfig struct {
	ID             string    `db:"id"`
	OrganizationID string    `db:"organization_id"`
	AgentID        string    `db:"agent_id"`
	PhoneNumberID  string    `db:"phone_number_id"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
}

const callConfigColumns = `id, organization_id, agent_id, phone_number_id, created_at, updated_at`

// SetCallConfig makes (agent, number) the team's agent call configuration, replacing any.
func (db *DB) SetCallConfig(ctx context.Context, c *CallConfig) error {
	return db.InTx(ctx, func(ctx context.Context) error {
		t := now()
		existing, err := db.CallConfigOf(ctx, c.OrganizationID)
		switch {
		case err == nil:
			c.ID, c.CreatedAt, c.UpdatedAt = existing.ID, existing.CreatedAt, t
			return db.one(ctx, `UPDATE agent_call_configs SET agent_id = ?, phone_number_id = ?, updated_at = ?
				WHERE organization_id = ?`, c.AgentID, c.PhoneNumberID, t, c.OrganizationID)
		case err != ErrNotFound:
			return err
		}
		c.ID, c.CreatedAt, c.UpdatedAt = NewID(), t, t
		_, err = db.exec(ctx, `INSERT INTO agent_call_configs (`+callConfigColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
			c.ID, c.OrganizationID, c.AgentID, c.PhoneNumberID, c.CreatedAt, c.UpdatedAt)
		return err
	})
}

// CallConfigOf returns a team's agent call configuration, or ErrNotFound.
func (db *DB) CallConfigOf(ctx context.Context, orgID string) (CallConfig, error) {
	var c CallConfig
	err := db.get(ctx, db.read(ctx), &c, `SELECT `+callConfigColumns+` FROM agent_call_configs WHERE organization_id = ?`, orgID)
	return c, err
}

// PhoneForCalls is what the call configuration needs to know of a team's number.
type PhoneForCalls struct {
	Status      string `db:"status"`
	IsNonTelnyx bool   `db:"is_non_telnyx"`
}

// PhoneForCallsOf returns the status of a team's number, or ErrNotFound.
func (db *DB) PhoneForCallsOf(ctx context.Context, orgID, id string) (PhoneForCalls, error) {
	var p PhoneForCalls
	err := db.get(ctx, db.read(ctx), &p, `SELECT status, is_non_telnyx FROM phone_numbers WHERE organization_id = ? AND id = ?`, orgID, id)
	return p, err
}

// AgentOrganization answers the organisation an agent profile belongs to, or ErrNotFound.
func (db *DB) AgentOrganization(ctx context.Context, id string) (string, error) {
	var org string
	err := db.get(ctx, db.read(ctx), &org, `SELECT organization_id FROM agent_profiles WHERE id = ?`, id)
	return org, err
}

// FirstAgentCreatedAt answers when the team's oldest agent profile was created (nil: none).
func (db *DB) FirstAgentCreatedAt(ctx context.Context, orgID string) (*time.Time, error) {
	var at []time.Time
	if err := db.selectAll(ctx, db.read(ctx), &at, `SELECT created_at FROM agent_profiles WHERE organization_id = ?
		ORDER BY created_at LIMIT 1`, orgID); err != nil || len(at) == 0 {
		return nil, err
	}
	return &at[0], nil
}
