package auth

// Role is a member's role in a team. Higher roles can do everything lower ones can.
type Role string

const (
	Readonly  Role = "readonly"
	Member    Role = "member"
	Developer Role = "developer"
	Admin     Role = "admin"
	Owner     Role = "owner"
)

var rank = map[Role]int{Readonly: 1, Member: 2, Developer: 3, Admin: 4, Owner: 5}

// Valid says whether r is a known role.
func (r Role) Valid() bool { return rank[r] > 0 }

// AtLeast says whether r is min or higher.
func (r Role) AtLeast(min Role) bool { return rank[r] >= rank[min] && rank[r] > 0 }

// Roles lists every role, lowest first.
var Roles = []Role{Readonly, Member, Developer, Admin, Owner}

// Above lists the roles higher than r.
func (r Role) Above() []Role {
	var out []Role
	for _, o := range Roles {
		if rank[o] > rank[r] {
			out = append(out, o)
		}
	}
	return out
}
