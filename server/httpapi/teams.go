package httpapi

// Teams answers the Team tag: teams, members, invitations, ownership, API keys and the team's
// billing views.
type Teams struct{ *handlers }
