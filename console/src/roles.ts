import type { Role } from './api';

const RANK: Record<Role, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };

/** The server's rule, so the console hides what the server would refuse (the server still decides). */
export const allows = (role: Role | undefined, needed: Role): boolean => role !== undefined && RANK[role] >= RANK[needed];
