// Placeholder until the auth core lands (issue 2, auth helper): the signatures other modules rely on.
export type Role = 'customer' | 'admin';

export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
}

export async function getUser(_request: Request): Promise<SessionUser | null> {
  return null;
}
