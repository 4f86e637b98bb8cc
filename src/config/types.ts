// The shape of targets.config.ts. `defineConfig` only gives editors the types; validation of
// what a user wrote is done at load time against the JSON Schema in schema.ts.
import type { Timeouts } from '../core/check.ts';

/**
 * What the server implements, when it is not everything (a server being built): only the checks
 * whose every route (WIRE: term) matches run; the reports say how many were left out and why.
 * Globs: `paths` over the routes a check touches (`/account/**`, with or without `/v4`;
 * `GET /account/**` names a method too), `methods` (`GET`), `terms` (`DB_*`, WIRE).
 */
export interface HttpImplements {
  paths?: string[];
  methods?: ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS')[];
}
export interface WireImplements {
  terms?: string[];
}

export interface WireTargetConfig {
  protocol: 'wire';
  /** The terms the server implements (globs over TermType names): see HttpImplements. */
  implements?: WireImplements;
  /** Start the embedded reference server (wire-ref) on 127.0.0.1 with an ephemeral port. */
  embedded?: boolean;
  /**
   * Embedded targets only: run the reference in its variant mode, which takes every choice the
   * document leaves open the other way (docs/open-choices.md). Every check passes against it too.
   */
  variant?: boolean;
  host?: string;
  port?: number;
  /** The authorization key the server expects ('' for none). Checks marked needs:authKey skip without it. */
  authKey?: string;
  /**
   * The key of a user without permission to write (to create a database, say), for the check of
   * PERMISSION_ERROR (line 167); it is skipped without one. Embedded targets seed their own.
   */
  restrictedAuthKey?: string;
  /** Embedded targets only: named faults to inject (see `conformance list --faults`). */
  faults?: string[];
  /** Largest response frame accepted from the target (default 64 MiB). */
  maxFrameBytes?: number;
  timeouts?: Partial<Timeouts>;
}

/** Tokens by role; a check that needs a role not configured is skipped with the reason. */
export interface CloudTokens {
  /** Unrestricted user with all scopes on account A. */
  unrestricted?: string;
  /** Restricted user on account A (global account_access read_only, no add_databases). */
  restricted?: string;
  /** Restricted user on account A with global account_access read_write (and no other grant). */
  restrictedReadWrite?: string;
  /** Unrestricted user on account A whose token has only `*:read_only` scopes. */
  readOnly?: string;
  /** Unrestricted user with all scopes on a second account B (service transfers). */
  otherAccount?: string;
  /** Unrestricted user on a throwaway account that cloud.account.cancel-survey-link cancels. */
  cancellable?: string;
}

/** A configured OAuth client (fixtures.oauth.client): its client_id and plaintext secret. */
export interface CloudOAuthClientConfig {
  id: string;
  secret: string;
  /** The redirect URI it was registered with; without it the authorization URL is sent none. */
  redirectUri?: string;
}

export interface CloudFixtures {
  /** Compute node ids of account A that may be transferred (each transfer check uses one). */
  transferableNodeIds?: number[];
  /** Managed MongoDB instance ids by status. */
  databases?: { active?: number; failed?: number; degraded?: number; provisioning?: number };
  /**
   * A promo code the target accepts for account A (younger than 90 days, no promo yet). A run
   * applies it to A once: `applies-once`, or the positive control of `old-account-refused`.
   */
  promoCode?: string;
  /**
   * Another promo code the target accepts for a young account: `applies-once` applies it after
   * `promoCode` to see a second, different code refused (line 219 "only once"), not a code refused
   * for reasons of its own.
   */
  secondPromoCode?: string;
  /** An entity of account A that is not a compute node (its entity key, e.g. `domains`, and id): a service transfer may not name it. */
  nonNodeEntity?: { key: string; id: number };
  /** Age in days of the otherAccount's account (promo credit is refused from 90 days on). */
  otherAccountAgeDays?: number;
  /** A list endpoint and fields it marks filterable (the document does not name them). */
  filter?: { path: string; stringField: string; numberField: string };
  /**
   * The OAuth login server (`/oauth/authorize`, `/oauth/token` under `authUrl`). `login: 'bearer'`:
   * a person is logged in there by sending the unrestricted token as a bearer token (how the
   * embedded reference logs in; a real provider's login form is not driven). The OAuth checks
   * skip without it. `client`: an OAuth client of account A that the checks which only exchange
   * codes and refresh tokens use instead of creating one (a private client; its `secret` is
   * redacted from every report like a token; `redirectUri` is the one it was registered with).
   * The checks that reset a secret or delete a client always create their own.
   */
  oauth?: { authUrl: string; login?: 'bearer'; client?: CloudOAuthClientConfig };
}

export interface CloudTargetConfig {
  protocol: 'cloud';
  /** The routes and methods the server implements: only the checks inside them run. */
  implements?: HttpImplements;
  /** Start the embedded reference server (cloud-ref) on 127.0.0.1 with an ephemeral port. */
  embedded?: boolean;
  /**
   * Embedded targets only: run the reference in its variant mode, which takes every choice the
   * document leaves open the other way (docs/open-choices.md). Every check passes against it too.
   */
  variant?: boolean;
  /** Scheme and host (and any path before /v4), e.g. https://api.example.com */
  baseUrl?: string;
  /** A PEM file of CA certificates to trust (besides the system's) for an https baseUrl: a private CA. */
  ca?: string;
  tokens?: CloudTokens;
  fixtures?: CloudFixtures;
  /** Opt-in for checks that change or burn state (`destructive`) or send bursts (`load`). */
  allow?: ('destructive' | 'load' | 'irreversible')[];
  faults?: string[];
  /** Largest response body read (default 8 MiB). */
  maxBodyBytes?: number;
  timeouts?: Partial<Timeouts>;
}

export interface BasicCredentials {
  username: string;
  password: string;
}

/** HTTP Basic credentials by role; a check needing a role not configured is skipped. */
export interface BuildUsers {
  /** An ordinary user, who may create projects under home:<username>. */
  user?: BasicCredentials;
  /** An admin (project move, binary uploads, package time). */
  admin?: BasicCredentials;
  /** A user holding the permissions the document mentions (status messages, statistics redirect). */
  privileged?: BasicCredentials;
}

export interface BuildFixtures {
  /** A project with packages, repositories and architectures the ordinary user can read. */
  project?: string;
  package?: string;
  repository?: string;
  arch?: string;
  /** Login of a registered user who has not confirmed the account (GET /person?confirmed leaves it out). */
  unconfirmedUser?: string;
  /** A worker as `<hostarch>:<workerid>` (GET /worker/<hostarch>:<workerid>: capabilities). */
  worker?: string;
  /**
   * A binary with owners at two or more levels of an owner root project's link hierarchy (say a
   * package maintainer in the root project and a project maintainer in a project it links to),
   * for the `limit` of /search/owner (default 1, 0 all, -1 deepest match).
   */
  ownedBinary?: string;
  /** The owner root project to search ownedBinary in (`project` of /search/owner); all owner root projects when absent. */
  ownerRootProject?: string;
  /**
   * Role names (as the service names them, the keys) and, for each, the login of a user who holds
   * that role and no other of them where ownedBinary is first matched (`filter` of /search/owner:
   * with one role's name, the entries name that user and not the others). Two or more roles.
   */
  ownerRoles?: Record<string, string>;
  /**
   * A binary (in the owner root project's link hierarchy) built from a package that names a devel
   * package `<devel project package/>` in `develProject`, which is outside the hierarchy; both
   * owned, in every role the default `filter` takes (`devel` of /search/owner).
   */
  ownerDevel?: { binary: string; develProject: string };
  /**
   * A project with two or more published binaries that no check wipes or unpublishes (the
   * published searches' `limit` and `withdownloadurl`); `project` when absent.
   */
  publishedProject?: string;
  /**
   * A package already built, with binaries in the build area and published: the checks of
   * `wipe`, `unpublish` and "no parameters means all packages" wipe and unpublish these binaries
   * (and those of the project's other packages) instead of waiting for a fresh build of their
   * own. Name it only for that purpose: those checks run only with `allow: ['destructive']`, and
   * they fall back to a fresh build of their own when it has no binaries left.
   */
  built?: { project: string; package: string; repository: string; arch: string };
  /** A package holding a product definition (a `.product` file), and one product it defines (view=products, `product`). */
  product?: { project: string; package: string; name: string };
  /**
   * The service's own namespace of the attributes the document names with the neutral prefix
   * `SVC:` (line 5: `SVC:Maintained`, `SVC:OwnerRootProject`, ...). Default `SVC`; an Open Build
   * Service names them `OBS`.
   */
  attributeNamespace?: string;
}

export interface BuildTargetConfig {
  protocol: 'build';
  /** The routes and methods the server implements: only the checks inside them run. */
  implements?: HttpImplements;
  /** Start the embedded reference server (build-ref) on 127.0.0.1 with an ephemeral port. */
  embedded?: boolean;
  /**
   * Embedded targets only: run the reference in its variant mode, which takes every choice the
   * document leaves open the other way (docs/open-choices.md). Every check passes against it too.
   */
  variant?: boolean;
  baseUrl?: string;
  /** A PEM file of CA certificates to trust (besides the system's) for an https baseUrl: a private CA. */
  ca?: string;
  users?: BuildUsers;
  /** A runservice token (POST /trigger/runservice with `Authorization: Token ...`). */
  token?: string;
  fixtures?: BuildFixtures;
  allow?: ('destructive' | 'load' | 'irreversible')[];
  faults?: string[];
  maxBodyBytes?: number;
  timeouts?: Partial<Timeouts>;
}

export type TargetConfig = WireTargetConfig | CloudTargetConfig | BuildTargetConfig;

export interface ConformanceConfig {
  targets: Record<string, TargetConfig>;
}

export function defineConfig(config: ConformanceConfig): ConformanceConfig {
  return config;
}
