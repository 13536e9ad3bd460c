// Package betty is the Go client of a Betty server.
//
// It wraps the client generated from openapi.yaml (package
// github.com/bettyhq/betty/sdk/client) with what every caller needs: authentication, token
// renewal, typed errors, retries and pagination. Every operation of the API is reached through
// the generated client, passed to Do, DoPage, All or NoContent:
//
//	bc, err := betty.New("http://localhost:8080", betty.WithAPIKey(os.Getenv("BETTY_API_KEY")))
//	keys, err := betty.Do[[]client.ApiKey](ctx, bc, func(ctx context.Context, api *client.Client) (*http.Response, error) {
//		return api.ListTeamApiKeys(ctx, &client.ListTeamApiKeysParams{OrganizationId: team})
//	})
//
// Raw returns the generated client with typed responses for callers that want them; it goes
// through the same transport, so everything below applies to it too.
//
// # Authentication
//
// A client acts either with an organisation API key (WithAPIKey, sent as
// `Authorization: Bearer betty_sk_…`) or with a user session (WithTokens, or SignIn): a
// short-lived access token sent as `Authorization: Bearer …` and a refresh token sent as
// `X-RefreshToken`. When the server answers 401 with the code token_expired, the client calls
// POST /v1/auth/refresh once, keeps the new pair, hands it to the function given to
// WithTokenSaver and sends the request again. Concurrent calls that meet the expired token
// share that one renewal, because the server rotates refresh tokens and treats a second use of
// the same one as theft. If the renewal fails, the caller gets the original 401. API keys do
// not expire and are never renewed.
//
// # Errors
//
// Every non-2xx answer is returned as an *APIError carrying the status, the problem document's
// stable code, its detail, the request id and, for validation failures, one FieldError per
// invalid field. Bodies that are not problem documents (a proxy's error page) still give an
// *APIError with their text as Detail. Test for kinds with errors.Is and the sentinels
// (ErrNotFound, ErrValidation, ErrUnauthorized, ErrTokenExpired, …); read the details with
// errors.As. A call that got no answer at all (connection refused, unknown host, timeout)
// is an *UnreachableError naming the server, matched by ErrUnreachable; other transport
// failures and a cancelled context are returned as they are, so
// errors.Is(err, context.Canceled) works.
//
// # Retries
//
// Idempotent requests (GET, HEAD, OPTIONS, PUT, DELETE) are retried up to 3 times
// (WithMaxRetries) when the server answers 429, 502, 503 or 504 or the connection fails. The
// wait grows exponentially from 200 ms to at most 5 s with jitter, or is the server's
// Retry-After when it sends one; a Retry-After over a minute is not waited for, and the 429 is
// returned with APIError.RetryAfter set. Waiting stops as soon as the context is done. POST
// and PATCH are never retried, nor are 500 and 501, which would fail again the same way.
//
// # Uploads
//
// UploadFile (and Upload, for any io.ReaderAt) sends a file with tus, the resumable upload
// protocol of /v1/uploads: it creates the upload, sends 6 MiB chunks, and when a chunk fails
// (a broken connection, a 5xx, an offset conflict) waits 0, 3, 5, 10 then 20 seconds, asks the
// server how much it has and goes on from there. UploadOptions.OnCreate hands out the
// upload's URL and UploadOptions.Resume takes it back, so a process that stopped half-way
// sends only the rest; Progress reports the bytes the server has. The answer's FileUrl is
// what other operations take:
//
//	up, err := bc.UploadFile(ctx, "price-list.pdf", betty.UploadOptions{OrganizationID: team,
//		Purpose: client.UploadPurposeKnowledgeFile})
//
// # Workflows
//
// Every operation on workflows and on a campaign's workflows has a typed helper. CreateWorkflow
// makes one that can run: in a campaign (WorkflowInput.CampaignID: of its type, spoken by its
// active agent unless AgentID names another) and with its own number (PhoneNumberID), which
// takes more than one call; when the number is refused the workflow is deleted again:
//
//	w, err := bc.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: "Reminders", CampaignID: campaign,
//		AgentID: agent, PhoneNumberID: number, Template: "template-appointment-reminder"})
//
// sdk/examples/campaign is a whole program, from a new campaign to each contact's outcome.
//
// # Any request
//
// Request sends a request the caller builds (method, path, headers, body) with the client's
// credentials, renewal and retries, and answers the response whole; the CLI's `betty api` is
// built on it. KeyTeam tells an API-key client the team its key belongs to.
//
// # Runs, events and calls
//
// RunWorkflow starts a job that calls a workflow's contacts; WaitForJob follows it to its end,
// reporting progress as it changes. Events reads the team's server-sent event stream
// (GET /v1/events: job.updated, call.updated, campaign.updated, knowledge.updated) as an
// iter.Seq2, reconnecting after a drop with Last-Event-ID so missed events are replayed; a
// `reset` event (EventReset) means they could not be and what is shown must be refetched.
// WaitForJob listens to that stream and polls GET /v2/jobs/status every 5 seconds while it is
// unavailable:
//
//	job, err := bc.RunWorkflow(ctx, team, workflowID, betty.RunOptions{})
//	job, err = bc.WaitForJob(ctx, team, job.Id, func(j client.Job) { log.Printf("%d%%", j.Progress.Percent) })
//
// CallLogs, CallTranscript and DownloadRecording read what calls left; InboxItems,
// SearchInbox and UpdateInboxItem the inbox; DoNotCall, AddDoNotCall and ImportDoNotCall the
// team's do-not-call list.
//
// # Pagination
//
// Lists answer a page at a time with a `meta` window. DoPage returns one Page; All walks every
// page from the first, yielding items as an iter.Seq2 for use with range, and stops at the
// first error or when the loop breaks.
package betty
