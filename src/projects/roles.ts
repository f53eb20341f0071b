/** A user's role in a project: OWNER does everything; ADMIN all but members and deleting the project; MEMBER the everyday work. */
export type Role = 'OWNER' | 'ADMIN' | 'MEMBER';

export const ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'MEMBER'];

const RANK: Record<Role, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };

/** Whether `role` may call a route that needs `needed` (roles are nested: each has what the one below has). */
export const allows = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);
