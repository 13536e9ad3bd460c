import { PageHeader } from '../../components/ui/page-header';
import { useCurrentTeam } from '../team/TeamContext';
import { OnboardingChecklist } from './OnboardingChecklist';

export default function OnboardingPage() {
  const team = useCurrentTeam();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Onboarding"
        description={`Five steps from a new team to ${team.name}'s first AI phone call. Each ticks itself off once it is done; a step that needs a part of Betty still being built says so.`}
      />
      <OnboardingChecklist teamId={team.id} />
    </div>
  );
}
