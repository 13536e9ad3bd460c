import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Navigate, Outlet, RouterProvider, useSearchParams, type DataRouter, type RouteObject } from 'react-router';

import { AppLayout } from './AppLayout';
import { PageSkeleton } from '../components/ui/states';
import { RequireAuth } from '../features/auth/RequireAuth';
import { preloadable } from '../lib/preloadable';
import { queryClient as defaultQueryClient } from '../lib/queryClient';

// Each page is its own chunk, fetched when its route is first visited.
// The toaster is not needed for the first paint; a toast raised before it loads shows once it has.
const Toaster = lazy(() => import('../components/ui/toast').then((m) => ({ default: m.Toaster })));
const LandingPage = lazy(() => import('./LandingPage'));
const NotFoundPage = lazy(() => import('../components/NotFoundPage'));
const SignInPage = lazy(() => import('../features/auth/SignInPage'));
const SignUpPage = lazy(() => import('../features/auth/SignUpPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage'));
const ConfirmEmailPage = lazy(() => import('../features/auth/ConfirmEmailPage'));
const InvitePage = lazy(() => import('../features/team/InvitePage'));
const TransferOwnershipPage = lazy(() => import('../features/team/TransferOwnershipPage'));
const DocsIndexPage = lazy(() => import('../features/help/DocsPage').then((m) => ({ default: m.DocsIndexPage })));
const GettingStartedPage = lazy(() => import('../features/help/DocsPage').then((m) => ({ default: m.GettingStartedPage })));
const GuidePage = lazy(() => import('../features/help/DocsPage'));
const DashboardShell = lazy(() => import('./DashboardShell').then((m) => ({ default: m.DashboardShell })));
const DashboardHomePage = lazy(() => import('../features/team/DashboardHomePage'));
const TeamSettingsPage = lazy(() => import('../features/team/TeamSettingsPage'));
const MembersPage = lazy(() => import('../features/members/MembersPage'));
const ApiKeysPage = lazy(() => import('../features/api-keys/ApiKeysPage'));
const CampaignsPage = lazy(() => import('../features/campaigns/CampaignsPage'));
const CampaignFormPage = lazy(() => import('../features/campaigns/CampaignFormPage'));
const CampaignPage = lazy(() => import('../features/campaigns/CampaignPage'));
const AgentsPage = lazy(() => import('../features/agents/AgentsPage'));
const KnowledgeBasePage = lazy(() => import('../features/knowledge/KnowledgeBasePage'));
const VoicesPage = lazy(() => import('../features/voices/VoicesPage'));
const PhoneNumbersPage = lazy(() => import('../features/phone-numbers/PhoneNumbersPage'));
const WorkflowsRoute = preloadable(() => import('../features/workflows/WorkflowsRoute'));
// A workflow opened by its address: fetch the canvas's chunks and the workflow alongside the shell, not after it.
if (typeof window !== 'undefined' && window.location.pathname === '/dashboard/workflow-canvas' && new URLSearchParams(window.location.search).has('workflowId')) {
  void WorkflowsRoute.preload();
  void import('../features/workflows/preload').then((m) => m.preloadOpenedWorkflow(defaultQueryClient, new URLSearchParams(window.location.search).get('workflowId') ?? ''));
}
const CallsPage = lazy(() => import('../features/calls/CallsPage'));
const InboxPage = lazy(() => import('../features/inbox/InboxPage'));
const PublicInboxPage = lazy(() => import('../features/inbox/PublicInboxPage'));
const DoNotCallPage = lazy(() => import('../features/do-not-call/DoNotCallPage'));
const BillingPage = lazy(() => import('../features/billing/BillingPage'));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage'));
const OnboardingPage = lazy(() => import('../features/onboarding/OnboardingPage'));
const AdminPage = lazy(() => import('../features/admin/AdminPage'));
const ConnectedAppsPage = lazy(() => import('../features/apps/ConnectedAppsPage'));
const ZapierPage = lazy(() => import('../features/zapier/ZapierPage'));
const ZapierCallbackPage = lazy(() => import('../features/zapier/ZapierCallbackPage'));
const HubspotCallbackPage = lazy(() => import('../features/apps/HubspotCallbackPage'));
const ShopifySetupPage = lazy(() => import('../features/shopify/ShopifySetupPage'));

/** /dashboard; HubSpot's OAuth callback lands here with ?app=hubspot&result=error… (a forged or expired state, a refusal), shown on the connected apps page. */
function DashboardIndex() {
  const [params] = useSearchParams();
  return params.get('app') ? <Navigate replace to={`/dashboard/connected-apps?${params.toString()}`} /> : <DashboardHomePage />;
}

function Root() {
  return (
    <>
      <Suspense
        fallback={
          <div className="p-6">
            <PageSkeleton />
          </div>
        }
      >
        <Outlet />
      </Suspense>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'sign-in', element: <SignInPage /> },
          { path: 'sign-up', element: <SignUpPage /> },
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          { path: 'confirm-email', element: <ConfirmEmailPage /> },
          { path: 'invite', element: <InvitePage /> },
          { path: 'transfer-ownership', element: <TransferOwnershipPage /> },
          { path: 'docs', element: <DocsIndexPage /> },
          { path: 'docs/*', element: <GuidePage /> },
          { path: 'getting-started', element: <GettingStartedPage /> },
          { path: 'inbox', element: <PublicInboxPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: (
          <RequireAuth>
            <DashboardShell />
          </RequireAuth>
        ),
        children: [
          { path: 'dashboard', element: <DashboardIndex /> },
          { path: 'dashboard/team', element: <TeamSettingsPage /> },
          { path: 'dashboard/members', element: <MembersPage /> },
          { path: 'dashboard/api-keys', element: <ApiKeysPage /> },
          { path: 'dashboard/campaigns', element: <CampaignsPage /> },
          { path: 'dashboard/campaigns/create', element: <CampaignFormPage /> },
          { path: 'dashboard/campaigns/:campaignId/edit', element: <CampaignFormPage /> },
          { path: 'dashboard/campaigns/:campaignId', element: <CampaignPage /> },
          { path: 'dashboard/campaigns/:campaignId/knowledge-base/add-faq', element: <CampaignPage addFaq /> },
          { path: 'dashboard/campaigns/:campaignId/:section', element: <CampaignPage /> },
          { path: 'dashboard/agents', element: <AgentsPage /> },
          { path: 'dashboard/knowledge-base', element: <KnowledgeBasePage /> },
          { path: 'dashboard/knowledge-base/add-faq', element: <KnowledgeBasePage addFaq /> },
          { path: 'dashboard/voices', element: <VoicesPage /> },
          { path: 'dashboard/phone-numbers', element: <PhoneNumbersPage /> },
          { path: 'dashboard/workflow-canvas', element: <WorkflowsRoute /> },
          { path: 'dashboard/calls', element: <CallsPage /> },
          { path: 'dashboard/inbox', element: <InboxPage /> },
          { path: 'dashboard/do-not-call', element: <DoNotCallPage /> },
          { path: 'dashboard/billing', element: <BillingPage /> },
          { path: 'dashboard/profile', element: <ProfilePage /> },
          { path: 'dashboard/connected-apps', element: <ConnectedAppsPage /> },
          { path: 'dashboard/apps/hubspot/callback', element: <HubspotCallbackPage /> },
          { path: 'dashboard/zapier', element: <ZapierPage /> },
          { path: 'dashboard/zapier/callback', element: <ZapierCallbackPage /> },
          // The server's default Zapier redirect URI (--zapier-redirect-uri): <base url>/apps/zapier/callback.
          { path: 'apps/zapier/callback', element: <ZapierCallbackPage /> },
          { path: 'dashboard/shopify-setting-setup', element: <ShopifySetupPage /> },
          { path: 'onboarding', element: <OnboardingPage /> },
          { path: 'admin', element: <AdminPage /> },
        ],
      },
    ],
  },
];

interface AppProps {
  router: DataRouter;
  /** Tests pass their own; the app uses the one made at start-up. */
  queryClient?: QueryClient;
}

export function App({ router, queryClient = defaultQueryClient }: AppProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
