package httpapi

import (
	"context"
	"net/http"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/store"
)

// Campaigns answers the Campaigns tag (v1: the campaigns themselves; the v2 campaign-workflow
// operations come with workflows).
type Campaigns struct{ svc *campaigns.Service }

const campaignPageSize = 5

// ListCampaigns lists the team's campaigns, filtered by status and name.
func (h *Campaigns) ListCampaigns(ctx context.Context, req api.ListCampaignsRequestObject) (api.ListCampaignsResponseObject, error) {
	var f store.CampaignFilter
	if s := req.Params.Status; s != nil && *s != api.CampaignStatusFilterAll {
		f.Status = store.CampaignStatus(*s)
	}
	f.Name = deref(req.Params.Name)
	items, meta, err := paged(newPage(req.Params.Page, req.Params.SizePerPage, campaignPageSize), func(limit, offset int) ([]campaigns.Campaign, int, error) {
		return h.svc.List(ctx, actor(ctx), f, campaigns.Page{Limit: limit, Offset: offset})
	})
	if err != nil {
		return nil, err
	}
	return api.ListCampaigns200JSONResponse{Status: http.StatusOK, Data: mapped(items, renderCampaign), Meta: meta}, nil
}

// CreateCampaign creates a campaign.
func (h *Campaigns) CreateCampaign(ctx context.Context, req api.CreateCampaignRequestObject) (api.CreateCampaignResponseObject, error) {
	b := req.Body
	in := campaignInput(b.Name, b.Type, b.Status, b.Priority, b.Purpose, b.Settings)
	in.PhoneNumberID = b.PhoneNumberId
	c, err := h.svc.Create(ctx, actor(ctx), in)
	if err != nil {
		return nil, err
	}
	return api.CreateCampaign201JSONResponse{Status: http.StatusCreated, Data: renderCampaign(c)}, nil
}

// GetCampaign answers one campaign.
func (h *Campaigns) GetCampaign(ctx context.Context, req api.GetCampaignRequestObject) (api.GetCampaignResponseObject, error) {
	c, err := h.svc.Get(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetCampaign200JSONResponse{Status: http.StatusOK, Data: renderCampaign(c)}, nil
}

// UpdateCampaign changes the fields sent.
func (h *Campaigns) UpdateCampaign(ctx context.Context, req api.UpdateCampaignRequestObject) (api.UpdateCampaignResponseObject, error) {
	b := req.Body
	in := campaignInput(b.Name, b.Type, b.Status, b.Priority, b.Purpose, b.Settings)
	if b.PhoneNumberId.IsSpecified() {
		id := "" // null removes the number
		if v, err := b.PhoneNumberId.Get(); err == nil {
			id = v
		}
		in.PhoneNumberID = &id
	}
	c, err := h.svc.Update(ctx, actor(ctx), req.Id, in)
	if err != nil {
		return nil, err
	}
	return api.UpdateCampaign200JSONResponse{Status: http.StatusOK, Data: renderCampaign(c)}, nil
}

// DeleteCampaign deletes a campaign.
func (h *Campaigns) DeleteCampaign(ctx context.Context, req api.DeleteCampaignRequestObject) (api.DeleteCampaignResponseObject, error) {
	if err := h.svc.Delete(ctx, actor(ctx), req.Id); err != nil {
		return nil, err
	}
	return api.DeleteCampaign200JSONResponse{Status: http.StatusOK, Data: api.Deleted{Id: req.Id}}, nil
}

// DuplicateCampaign copies a campaign.
func (h *Campaigns) DuplicateCampaign(ctx context.Context, req api.DuplicateCampaignRequestObject) (api.DuplicateCampaignResponseObject, error) {
	c, err := h.svc.Duplicate(ctx, actor(ctx), req.Id)
	if err != nil {
		return nil, err
	}
	return api.DuplicateCampaign201JSONResponse{Status: http.StatusCreated, Data: renderCampaign(c)}, nil
}

// ListCampaignPhoneNumberAssignments lists the campaigns a number is assigned to.
func (h *Campaigns) ListCampaignPhoneNumberAssignments(ctx context.Context, req api.ListCampaignPhoneNumberAssignmentsRequestObject) (api.ListCampaignPhoneNumberAssignmentsResponseObject, error) {
	limit := 1
	if req.Params.Limit != nil {
		limit = *req.Params.Limit
	}
	var direction store.Direction
	if req.Params.CampaignType != nil {
		direction = store.Direction(*req.Params.CampaignType)
	}
	rows, total, err := h.svc.PhoneAssignments(ctx, actor(ctx).OrganizationID, req.Id, direction, limit)
	if err != nil {
		return nil, err
	}
	p := page{Number: 1, Size: limit}
	return api.ListCampaignPhoneNumberAssignments200JSONResponse{Status: http.StatusOK, Meta: p.meta(total, len(rows)),
		Data: mapped(rows, func(c store.Campaign) api.CampaignPhoneNumberAssignment {
			return api.CampaignPhoneNumberAssignment{PhoneNumberId: req.Id, CampaignId: c.ID, CampaignName: c.Name,
				CampaignType: api.CallDirection(c.Direction), CampaignStatus: api.CampaignStatus(c.Status), AssignedAt: *c.PhoneAssignedAt}
		})}, nil
}

// campaignInput binds the fields create and update share.
func campaignInput(name *string, direction *api.CallDirection, status *api.CampaignSettableStatus, priority *api.CampaignPriority,
	purpose *api.CampaignPurpose, settings *api.CampaignSettingsInput) campaigns.Input {
	in := campaigns.Input{Name: name, Priority: (*string)(priority), Purpose: (*string)(purpose)}
	if direction != nil {
		d := store.Direction(*direction)
		in.Direction = &d
	}
	if status != nil {
		s := store.CampaignStatus(*status)
		in.Status = &s
	}
	if settings != nil {
		in.Settings = &campaigns.SettingsInput{MaxConcurrentCalls: settings.MaxConcurrentCalls, Timezone: settings.Timezone,
			RetryAttempts: settings.RetryAttempts, RetryDelayMinutes: settings.RetryDelayMinutes,
			VoicemailAction: (*string)(settings.VoicemailAction), VoicemailMessage: settings.VoicemailMessage, RecordCalls: settings.RecordCalls,
			MaxCallDurationMinutes: settings.MaxCallDurationMinutes}
		if kinds := settings.AllowedNumberTypes; kinds != nil {
			names := mapped(*kinds, func(k api.CampaignNumberType) string { return string(k) })
			in.Settings.AllowedNumberTypes = &names
		}
		if w := settings.CallWindow; w != nil {
			days := make([]string, 0, len(w.Days))
			for _, d := range w.Days {
				days = append(days, string(d))
			}
			in.Settings.CallWindow = &campaigns.CallWindow{Start: w.Start, End: w.End, Days: days}
		}
	}
	return in
}
