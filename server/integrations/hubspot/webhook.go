package hubspot

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/store"
	"github.com/bettyhq/betty/server/workflows"
)

// WebhookWindow is how old a webhook's timestamp may be (HubSpot's rule for v3 signatures).
const WebhookWindow = 5 * time.Minute

// Sign is HubSpot's v3 signature of a request: base64 of HMAC-SHA256, keyed with the app's
// client secret, of method + full URI + raw body + timestamp (Unix milliseconds).
func Sign(secret, method, uri string, body []byte, timestamp string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(method + uri))
	m.Write(body)
	m.Write([]byte(timestamp))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// Event is one event of a webhook batch.
type Event struct {
	EventID          json.Number `json:"eventId"`
	SubscriptionType string      `json:"subscriptionType"`
	PortalID         json.Number `json:"portalId"`
	ObjectID         json.Number `json:"objectId"`
	PropertyName     string      `json:"propertyName"`
	PropertyValue    string      `json:"propertyValue"`
	OccurredAt       json.Number `json:"occurredAt"`
}

// Receive checks a webhook request (method, the full URI HubSpot called, the raw body and
// the signature headers) and applies its events: 400 for malformed headers or body, 401 for
// a signature that does not match or a stale timestamp. Events already handled are skipped.
func (s *Service) Receive(ctx context.Context, method, uri string, raw []byte, signature, timestamp string) error {
	if !s.Configured() {
		return errs.WithCode(errs.Unavailable, errs.CodeUnavailable,
			"HubSpot is not configured on this server: an operator must set --hubspot-client-id and --hubspot-client-secret.")
	}
	ms, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return errs.InvalidField("X-HubSpot-Request-Timestamp", "the timestamp is Unix milliseconds")
	}
	if _, err := base64.StdEncoding.DecodeString(signature); err != nil || signature == "" {
		return errs.InvalidField("X-HubSpot-Signature-v3", "the signature is base64")
	}
	if d := s.now().Sub(time.UnixMilli(ms)); d > WebhookWindow || d < -WebhookWindow {
		return errs.New(errs.Unauthenticated, "The webhook's timestamp is more than 5 minutes away: it is refused.")
	}
	if !hmac.Equal([]byte(signature), []byte(Sign(s.c.cfg.ClientSecret, method, uri, raw, timestamp))) {
		return errs.New(errs.Unauthenticated, "The webhook's X-HubSpot-Signature-v3 does not match.")
	}
	var events []Event
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&events); err != nil {
		return errs.InvalidField("body", "the body is a JSON array of HubSpot events")
	}
	for _, e := range events {
		if e.EventID == "" || e.PortalID == "" {
			return errs.InvalidField("body", "every event has an eventId and a portalId")
		}
	}
	for _, e := range events {
		if err := s.d.DB.InTx(ctx, func(ctx context.Context) error {
			fresh, err := s.d.DB.UseHubSpotEvent(ctx, e.PortalID.String()+":"+e.EventID.String())
			if err != nil || !fresh {
				return err
			}
			return s.apply(ctx, e)
		}); err != nil {
			return err
		}
	}
	return nil
}

// apply handles one event: a contact deleted (contact.deletion, or contact.privacyDeletion when
// HubSpot erases it at the contact's request) leaves the nodes that hold it (unless called), a
// changed property updates the stored copies, an uninstall disconnects the portal's apps.
func (s *Service) apply(ctx context.Context, e Event) error {
	apps, err := s.d.Apps.AppsOfAccount(ctx, integrations.HubSpot, e.PortalID.String())
	if err != nil || len(apps) == 0 {
		return err
	}
	switch e.SubscriptionType {
	case "app.uninstall", "app.deauthorized":
		for _, a := range apps {
			if a.Status == store.AppConnected {
				if err := s.d.Apps.MarkDisconnected(ctx, a); err != nil {
					return err
				}
			}
		}
		return nil
	case "contact.deletion", "contact.privacyDeletion", "contact.propertyChange":
	default:
		return nil
	}
	ids := make([]string, len(apps))
	for i, a := range apps {
		ids[i] = a.ID
	}
	copies, err := s.d.DB.ContactsOfApps(ctx, ids, e.ObjectID.String())
	if err != nil {
		return err
	}
	for _, c := range copies {
		if e.SubscriptionType != "contact.propertyChange" { // a deletion, for privacy or not
			if _, err := s.d.DB.DeleteUncalledContact(ctx, c.OrganizationID, c.ID); err != nil {
				return err
			}
			continue
		}
		next, changed := c, true
		v := &e.PropertyValue
		if e.PropertyValue == "" {
			v = nil
		}
		switch e.PropertyName {
		case "firstname":
			next.FirstName = v
		case "lastname":
			next.LastName = v
		case "email":
			next.Email = v
		case "lifecyclestage":
			if st := BettyStage(e.PropertyValue); st != "" {
				next.LifecycleStage = &st
			} else {
				next.LifecycleStage = nil
			}
		case "phone":
			n := workflows.ContactFromFields(e.PropertyValue, "", "", "", "", "")
			next.Phone, next.Region, next.TimeZone, next.Status, next.LastError = n.Phone, n.Region, n.TimeZone, n.Status, n.LastError
			if err := s.dedupe(ctx, &next); err != nil {
				return err
			}
		default:
			changed = false
		}
		if changed {
			if err := s.d.DB.UpdateExternalContact(ctx, next); err != nil {
				return err
			}
		}
	}
	return nil
}
