/**
 * typed-permissions/prisma — ownership rules as Prisma `where` inputs: `prismaOwnership(prisma, { models })` is the
 * source of every ownership answer through the application's Prisma client, and `where(permit)` the filter for its
 * own queries. It imports nothing of Prisma: the client is the application's.
 */
export {
  prismaOwnership,
  type PrismaModelDelegate,
  type PrismaOwnershipOptions,
  type PrismaOwnershipSource,
  type PrismaOwnershipWhere,
} from './prisma-ownership.js';
