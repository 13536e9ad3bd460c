// The session's queries and mutations: they own the tokens in storage and the cached user.

import { useQuery, type QueryClient } from '@tanstack/react-query';

import {
  confirmEmail,
  confirmPasswordReset,
  getCurrentUser,
  getGetCurrentUserQueryKey,
  requestPasswordReset,
  resendEmailConfirmation,
  signIn,
  signOut as signOutRequest,
  signUp,
  updateCurrentUserProfile,
} from '../../api/gen/auth/auth';
import type { Session, SignInRequest, SignUpRequest, User, UserProfileUpdate } from '../../api/gen/model';
import { clearTokens, setTokens } from '../../api/session';
import { clearExplicitSignOut, markExplicitSignOut, useSignedIn } from './session';

export const meQueryKey = getGetCurrentUserQueryKey();

export function meQueryOptions() {
  return {
    queryKey: meQueryKey,
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getCurrentUser({ signal })).data,
    staleTime: 60_000,
    // The flags the navigation follows change on the server (`betty admin grant` in a terminal
    // makes a site admin): coming back to the tab reads them again, so the Admin entry appears
    // without signing in again.
    refetchOnWindowFocus: 'always' as const,
  };
}

/** The signed-in user; idle while signed out. */
export function useCurrentUser() {
  const signedIn = useSignedIn();
  return useQuery({ ...meQueryOptions(), enabled: signedIn });
}

function startSession(queryClient: QueryClient, session: Session): void {
  // A new person may be signing in on this browser: nothing cached for the last one survives.
  queryClient.clear();
  clearExplicitSignOut();
  setTokens({ accessToken: session.accessToken, refreshToken: session.refreshToken });
  queryClient.setQueryData<User>(meQueryKey, session.user);
}

export function signInMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: SignInRequest) => (await signIn(body)).data,
    onSuccess: (session: Session) => startSession(queryClient, session),
  };
}

export function signUpMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: SignUpRequest) => (await signUp(body)).data,
    onSuccess: (result: Awaited<ReturnType<typeof signUp>>['data']) => {
      if (result.session) startSession(queryClient, result.session);
    },
  };
}

export function requestPasswordResetMutationOptions() {
  return { mutationFn: async (email: string) => (await requestPasswordReset({ email })).data };
}

export function confirmPasswordResetMutationOptions() {
  return { mutationFn: async (body: { token: string; password: string }) => (await confirmPasswordReset(body)).data };
}

export function confirmEmailMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (token: string) => (await confirmEmail({ token })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  };
}

export function resendConfirmationMutationOptions() {
  return { mutationFn: async () => (await resendEmailConfirmation()).data };
}

export function updateProfileMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (props: UserProfileUpdate) => (await updateCurrentUserProfile({ props })).data,
    onSuccess: (user: User) => queryClient.setQueryData<User>(meQueryKey, user),
  };
}

/** Ends the session here and on the server; the protected screens then go to the start page. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await signOutRequest();
  } catch {
    // The server may already consider the session over; the browser forgets it either way.
  }
  markExplicitSignOut();
  clearTokens();
  queryClient.clear();
}
