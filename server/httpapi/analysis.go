package httpapi

import (
	"context"
	"io"
	"strings"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/workflow"
)

// ExportJobCalls streams a job's calls with their analysis as CSV.
func (h *Workflows) ExportJobCalls(ctx context.Context, req api.ExportJobCallsRequestObject) (api.ExportJobCallsResponseObject, error) {
	e, err := h.svc.JobCallsExport(ctx, actor(ctx), string(req.Id))
	if err != nil {
		return nil, err
	}
	r, w := io.Pipe()
	go func() { w.CloseWithError(e.WriteTo(ctx, w)) }() // the response reads r to its end within the request
	return api.ExportJobCalls200TextcsvResponse{Body: r,
		Headers: api.ExportJobCalls200ResponseHeaders{ContentDisposition: "attachment" + strings.TrimPrefix(contentDisposition(e.Name), "inline")}}, nil
}

func postCallFieldsOf(in *[]api.PostCallField) []workflow.PostCallField {
	if in == nil {
		return nil
	}
	out := make([]workflow.PostCallField, 0, len(*in))
	for _, f := range *in {
		pf := workflow.PostCallField{Name: f.Name, Type: workflow.ValueType(f.Type), Description: f.Description}
		if f.Options != nil {
			pf.Options = append([]string{}, *f.Options...)
		}
		out = append(out, pf)
	}
	return out
}

func renderPostCallFields(in []workflow.PostCallField) *[]api.PostCallField {
	out := make([]api.PostCallField, 0, len(in))
	for _, f := range in {
		pf := api.PostCallField{Name: f.Name, Type: api.PostCallFieldType(f.Type), Description: f.Description}
		if len(f.Options) > 0 {
			opts := append([]string{}, f.Options...)
			pf.Options = &opts
		}
		out = append(out, pf)
	}
	return &out
}

func renderAnalysis(a *conversation.Analysis) *api.CallAnalysis {
	if a == nil {
		return nil
	}
	return &api.CallAnalysis{Summary: a.Summary, Outcome: a.Outcome, AnalysedBy: a.By,
		Fields: mapped(a.Fields, func(f conversation.FieldValue) api.CallFieldValue {
			return api.CallFieldValue{Name: f.Name, Value: f.Value, Turn: f.Turn}
		})}
}
