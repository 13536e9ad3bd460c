package hubspottest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The CRM v3 endpoints of the fake: contacts search, list, batch read, read and update, the
// lifecyclestage property, and lists with their memberships.

type object struct {
	ID         string            `json:"id"`
	Properties map[string]string `json:"properties"`
	CreatedAt  time.Time         `json:"createdAt"`
	UpdatedAt  time.Time         `json:"updatedAt"`
	Archived   bool              `json:"archived"`
}

func (s *Server) object(c *Contact, props []string) object {
	p := map[string]string{"hs_object_id": c.ID, "createdate": c.CreatedAt.Format(time.RFC3339Nano),
		"lastmodifieddate": c.UpdatedAt.Format(time.RFC3339Nano)}
	for _, k := range props {
		if v, ok := c.Properties[k]; ok {
			p[k] = v
		}
	}
	return object{ID: c.ID, Properties: p, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// page answers ids[after:after+limit] with HubSpot's paging.
func (s *Server) page(ids []string, after string, limit int, props []string, total bool) map[string]any {
	start, _ := strconv.Atoi(after)
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	start = min(max(start, 0), len(ids))
	end := min(start+limit, len(ids))
	results := make([]object, 0, end-start)
	for _, id := range ids[start:end] {
		results = append(results, s.object(s.contacts[id], props))
	}
	out := map[string]any{"results": results}
	if total {
		out["total"] = len(ids)
	}
	if end < len(ids) {
		out["paging"] = map[string]any{"next": map[string]string{"after": strconv.Itoa(end),
			"link": s.URL + "/crm/v3/objects/contacts?after=" + strconv.Itoa(end)}}
	}
	return out
}

func (s *Server) crm(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/crm/v3/objects/contacts/search" && r.Method == http.MethodPost:
		s.count("search")
		var body struct {
			Query      string   `json:"query"`
			Properties []string `json:"properties"`
			Limit      int      `json:"limit"`
			After      string   `json:"after"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			apiError(w, http.StatusBadRequest, "VALIDATION_ERROR", "Invalid input JSON: "+err.Error())
			return
		}
		s.mu.Lock()
		q := strings.ToLower(strings.TrimSpace(body.Query))
		var ids []string
		for _, id := range s.order {
			c := s.contacts[id]
			hay := strings.ToLower(strings.Join([]string{c.Properties["firstname"], c.Properties["lastname"],
				c.Properties["email"], c.Properties["phone"], c.Properties["mobilephone"]}, " "))
			if q == "" || strings.Contains(hay, q) {
				ids = append(ids, id)
			}
		}
		out := s.page(ids, body.After, body.Limit, body.Properties, true)
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, out)
	case p == "/crm/v3/objects/contacts/batch/read" && r.Method == http.MethodPost:
		s.count("batch-read")
		var body struct {
			Inputs     []struct{ ID string } `json:"inputs"`
			Properties []string              `json:"properties"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Inputs) > 100 {
			apiError(w, http.StatusBadRequest, "VALIDATION_ERROR", "Invalid input: inputs is an array of at most 100 ids")
			return
		}
		s.mu.Lock()
		results := []object{}
		for _, in := range body.Inputs {
			if c, ok := s.contacts[in.ID]; ok {
				results = append(results, s.object(c, body.Properties))
			}
		}
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"status": "COMPLETE", "results": results,
			"startedAt": time.Now().UTC(), "completedAt": time.Now().UTC()})
	case p == "/crm/v3/objects/contacts" && r.Method == http.MethodGet:
		s.count("list")
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		s.mu.Lock()
		out := s.page(append([]string(nil), s.order...), q.Get("after"), limit, strings.Split(q.Get("properties"), ","), false)
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, out)
	case strings.HasPrefix(p, "/crm/v3/objects/contacts/") && (r.Method == http.MethodGet || r.Method == http.MethodPatch):
		id := strings.TrimPrefix(p, "/crm/v3/objects/contacts/")
		s.mu.Lock()
		c, ok := s.contacts[id]
		s.mu.Unlock()
		if !ok {
			apiError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", "resource not found")
			return
		}
		if r.Method == http.MethodGet {
			s.count("get")
			s.mu.Lock()
			o := s.object(c, strings.Split(r.URL.Query().Get("properties"), ","))
			s.mu.Unlock()
			writeJSON(w, http.StatusOK, o)
			return
		}
		s.count("patch")
		var body struct {
			Properties map[string]string `json:"properties"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Properties == nil {
			apiError(w, http.StatusBadRequest, "VALIDATION_ERROR", "Invalid input JSON: properties is required")
			return
		}
		s.mu.Lock()
		if st, ok := body.Properties["lifecyclestage"]; ok && !s.knownStage(st) {
			s.mu.Unlock()
			apiError(w, http.StatusBadRequest, "VALIDATION_ERROR", fmt.Sprintf("Property values were not valid: %q was not one of the allowed options", st))
			return
		}
		props := make([]string, 0, len(body.Properties))
		for k, v := range body.Properties {
			c.Properties[k] = v
			props = append(props, k)
		}
		c.UpdatedAt = time.Now().UTC()
		o := s.object(c, props)
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, o)
	case p == "/crm/v3/properties/contacts/lifecyclestage" && r.Method == http.MethodGet:
		s.count("stages")
		s.mu.Lock()
		opts := append([]Stage(nil), s.stages...)
		s.mu.Unlock()
		sort.SliceStable(opts, func(i, j int) bool { return opts[i].DisplayOrder < opts[j].DisplayOrder })
		writeJSON(w, http.StatusOK, map[string]any{"name": "lifecyclestage", "label": "Lifecycle Stage", "type": "enumeration",
			"fieldType": "radio", "groupName": "contactinformation", "options": opts})
	case strings.HasPrefix(p, "/crm/v3/lists/") && r.Method == http.MethodGet:
		s.listRoute(w, r, strings.TrimPrefix(p, "/crm/v3/lists/"))
	default:
		apiError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", "No route for "+r.Method+" "+p)
	}
}

func (s *Server) knownStage(v string) bool {
	for _, st := range s.stages {
		if st.Value == v {
			return true
		}
	}
	return false
}

// A list of the fake portal: its members are record ids (contacts or, with another object
// type, anything).
type list struct {
	id, name, objectType string
	members              []string
}

// AddList adds a list of contacts with members and answers its id.
func (s *Server) AddList(name string, members ...string) string {
	return s.AddListOf(name, "0-1", members...)
}

// AddListOf adds a list of objects of objectType ("0-1" contacts, "0-2" companies, …).
func (s *Server) AddListOf(name, objectType string, members ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := strconv.FormatInt(s.nextID, 10)
	s.nextID++
	s.lists[id] = &list{id: id, name: name, objectType: objectType}
	s.setMembers(id, members)
	return id
}

// SetListMembers replaces a list's members (as a HubSpot user, or an active list, would).
func (s *Server) SetListMembers(id string, members ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setMembers(id, members)
}

func (s *Server) setMembers(id string, members []string) {
	m := append([]string(nil), members...)
	sort.Slice(m, func(i, j int) bool {
		a, _ := strconv.ParseInt(m[i], 10, 64)
		b, _ := strconv.ParseInt(m[j], 10, 64)
		return a < b
	})
	s.lists[id].members = m
}

// listRoute answers GET /crm/v3/lists/{id} and /crm/v3/lists/{id}/memberships.
func (s *Server) listRoute(w http.ResponseWriter, r *http.Request, rest string) {
	id, sub, _ := strings.Cut(rest, "/")
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.lists[id]
	if !ok {
		apiError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", fmt.Sprintf("List with id %s does not exist.", id))
		return
	}
	switch sub {
	case "":
		s.counts["list-get"]++
		writeJSON(w, http.StatusOK, map[string]any{"list": map[string]any{"listId": l.id, "name": l.name, "objectTypeId": l.objectType,
			"processingType": "MANUAL", "listVersion": 1, "additionalProperties": map[string]string{"hs_list_size": strconv.Itoa(len(l.members))}}})
	case "memberships":
		s.counts["list-members"]++
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		if limit <= 0 || limit > 250 {
			limit = 100
		}
		start, _ := strconv.Atoi(q.Get("after")) // the fake's cursor is an offset
		start = min(max(start, 0), len(l.members))
		end := min(start+limit, len(l.members))
		results := make([]map[string]string, 0, end-start)
		for _, m := range l.members[start:end] {
			results = append(results, map[string]string{"recordId": m, "membershipTimestamp": "2026-01-01T00:00:00Z"})
		}
		out := map[string]any{"results": results, "total": len(l.members)}
		if end < len(l.members) {
			out["paging"] = map[string]any{"next": map[string]string{"after": strconv.Itoa(end)}}
		}
		writeJSON(w, http.StatusOK, out)
	default:
		apiError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", "No route for GET /crm/v3/lists/"+rest)
	}
}
