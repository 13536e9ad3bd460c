package app

import (
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/uploads"
	"github.com/bettyhq/betty/server/workflows"
)

// resourceOwners are the domain services that know who owns each resource.
type resourceOwners struct {
	workflows *workflows.Service
	campaigns *campaigns.Service
	knowledge *knowledge.Service
	billing   *billing.Service
	uploads   *uploads.Service
	runs      *runs.Service
}

// resources is the guard's registry: for every resource kind auth.Policy names, the one
// lookup of the domain that owns it. httpapi.New refuses a policy naming a kind missing here.
func resources(o resourceOwners) auth.Registry {
	return auth.Registry{
		"workflow":       auth.One(o.workflows.OrganizationOf),
		"node":           o.workflows.NodeOwners,
		"campaign":       auth.One(o.campaigns.OrganizationOf),
		"phone number":   auth.One(o.campaigns.PhoneOrganizationOf),
		"knowledge base": auth.One(o.knowledge.OrganizationOf),
		"knowledge file": auth.One(o.knowledge.EntryOrganizationOf),
		"payment intent": auth.One(o.billing.IntentOrganization),
		"upload":         auth.One(o.uploads.Owner),
		"job":            auth.Many(o.runs.OrganizationsOf),
	}
}
