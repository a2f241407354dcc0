/**
 * The Context every command runs with (see context.ts for what it offers):
 * built once per invocation by cli.ts, from real streams and services, or by
 * tests with in-memory streams and test doubles for the services.
 */
import { Output } from './output/output.js';
import { AuthError, UsageError } from './errors.js';
import type { ApiClient, CredentialProvider } from './api/client.js';
import type { ConfigStore, ProfileConfig } from './config/config.js';
import { jsonOnTerminal, terminalSafe } from './output/terminal-text.js';
import type { ResolvedCredential } from './auth/credentials.js';
import { idempotencyKeyFlag } from './util/ids.js';
import type { Context, Env, GlobalOptions, Io, Services } from './context.js';
import { defaultServices } from './services.js';
import { randomUuid } from './util/random-uuid.js';

export class CommandContext implements Context {
  readonly out: Output;
  private configPromise?: Promise<ConfigStore>;
  private credentialPromise?: Promise<ResolvedCredential | null>;
  private clientPromise?: Promise<ApiClient>;

  constructor(
    readonly io: Io,
    readonly env: Env,
    readonly opts: GlobalOptions,
    readonly signal: AbortSignal,
    readonly services: Services = defaultServices(env),
  ) {
    // --json on a terminal: the unsafe characters as \u escapes (terminal-text.ts); piped, exact.
    this.out = new Output(opts.json ? jsonOnTerminal(io.stdout) : io.stdout, io.stderr, {
      json: opts.json,
      jsonErrors: opts.jsonFlag,
      quiet: opts.quiet,
      wide: opts.wide,
      signal,
      screen: {
        env,
        colorFlag: opts.colorMode,
        pager: opts.pager !== false,
        plain: Boolean(opts.plain || (env.MSGCTL_PLAIN && env.MSGCTL_PLAIN !== '0')),
        profile: () => this.profile(),
        organizationTimeZone: () => this.organizationTimeZone(),
        now: () => services.clock.now(),
      },
    });
  }

  /** Prompts are allowed only when a person is at a terminal. */
  get interactive(): boolean {
    return Boolean(this.io.stdin.isTTY && this.io.stderr.isTTY);
  }

  verbose(line: string): void {
    if (this.opts.verbose) this.io.stderr.write(`[verbose] ${terminalSafe(line, { keepLines: true })}\n`);
  }

  config(): Promise<ConfigStore> {
    this.configPromise ??= import('./config/config.js').then((m) => m.ConfigStore.load(this.env));
    return this.configPromise;
  }

  async profileName(): Promise<string> {
    const { chooseProfileName } = await import('./config/config.js');
    return chooseProfileName(this.opts.profile, this.env, await this.config());
  }

  async profile(): Promise<ProfileConfig | undefined> {
    return (await this.config()).profile(await this.profileName());
  }

  /** --base-url, then MSGCTL_BASE_URL, then the profile's; null when none is configured. */
  async configuredBaseUrl(): Promise<string | null> {
    return this.opts.baseUrl || this.env.MSGCTL_BASE_URL || (await this.profile())?.base_url || null;
  }

  /** The base URL to use; a usage error (with the ways to set one) when none is configured. */
  async baseUrl(): Promise<string> {
    const url = await this.configuredBaseUrl();
    if (!url) {
      await this.refuseUnknownProfile();
      throw new UsageError('No API base URL is configured.', [
        'Pass --base-url https://…/v1, set MSGCTL_BASE_URL, or store one in a profile (`msgctl auth set-key --base-url …`).',
        'To try msgctl locally: `msgctl sandbox --write-profile` and then `msgctl --profile sandbox …`.',
      ]);
    }
    return url;
  }

  /**
   * A profile named by --profile, MSGCTL_PROFILE or the config's default that
   * does not exist is a typo, not a missing credential: say so, with the
   * profiles there are. Called only when the profile was needed (so
   * `--profile new auth set-key` still creates one).
   */
  private async refuseUnknownProfile(options: { namedOnly?: boolean } = {}): Promise<void> {
    const config = await this.config();
    const named = this.opts.profile || this.env.MSGCTL_PROFILE || (options.namedOnly ? undefined : config.defaultProfile);
    if (!named) return;
    // A name that is not plain (`__proto__`, `a/b`) is a usage error before anything else.
    (await import('./config/config.js')).chooseProfileName(this.opts.profile, this.env, config);
    if (config.profile(named)) return;
    const { describeUnknownProfile } = await import('./config/unknown-profile.js');
    throw describeUnknownProfile(named, config, this.opts.profile ? '--profile' : this.env.MSGCTL_PROFILE ? 'MSGCTL_PROFILE' : 'default_profile');
  }

  /** The zone the service keeps the organization's dates in (GET /organization `time_zone`), for `time_zone: organization`. */
  private async organizationTimeZone(): Promise<string | undefined> {
    const organization = await (await this.client()).get<{ time_zone?: unknown }>('/organization', undefined, this.signal);
    return typeof organization.time_zone === 'string' ? organization.time_zone : undefined;
  }

  /** How phone numbers without a country code are read: --region, then the profile's, then US. */
  async region(flag?: string): Promise<string> {
    return flag ?? (await this.profile())?.region ?? 'US';
  }

  credential(): Promise<ResolvedCredential | null> {
    this.credentialPromise ??= (async () => {
      // Loaded side by side, not one after the other: each import is a round of the module loader.
      const [{ resolveCredential, sendableCredential }, profileName, config] = await Promise.all([import('./auth/credentials.js'), this.profileName(), this.config()]);
      const found = await resolveCredential(this.env, profileName, config, (message) => this.out.warn(message));
      const resolved = found && sendableCredential(found);
      // A profile named by --profile or MSGCTL_PROFILE that does not exist is a typo even when the
      // environment holds the credential: its settings (region, time zone, default number) would
      // silently not apply, and a cron job's mistake would show only in what it sent. (Without a
      // credential, credentialProvider refuses it as before; a stale default_profile is not a typo
      // on this command line, and stays as it was.)
      if (resolved?.source.startsWith('env:')) await this.refuseUnknownProfile({ namedOnly: true });
      return resolved;
    })();
    return this.credentialPromise;
  }

  /** Where the credential came from, once a command has looked for it (for error hints); null otherwise. */
  async credentialSourceIfKnown(): Promise<ResolvedCredential['source'] | null> {
    if (!this.credentialPromise) return null;
    return (await this.credentialPromise.catch(() => null))?.source ?? null;
  }

  /** The API client for this command; fails with exit 3 when no credential exists. */
  client(): Promise<ApiClient> {
    this.clientPromise ??= this.buildClient();
    return this.clientPromise;
  }

  private async buildClient(): Promise<ApiClient> {
    // The client's modules load while the credential is being resolved (start-up).
    const modules = clientModules();
    const credential = await this.credentialProvider();
    await modules;
    return this.clientFor(credential);
  }

  /**
   * How requests authenticate: a fixed bearer, or OAuth tokens that refresh
   * themselves. Fails with exit 3 when no credential exists.
   */
  async credentialProvider(): Promise<CredentialProvider> {
    const resolved = await this.credential();
    if (!resolved) {
      await this.refuseUnknownProfile();
      const profile = await this.profileName();
      const { otherProfilesHint } = await import('./config/unknown-profile.js');
      throw new AuthError(`No credential for profile "${profile}".`, [
        ...otherProfilesHint(profile, await this.config()),
        ...(await this.sandboxHint(profile)),
        'Store an API key: `msgctl auth set-key` (reads it from stdin or a hidden prompt),',
        'log in as an org admin: `msgctl login`, or set MSGCTL_API_KEY / MSGCTL_TOKEN.',
      ]);
    }
    if (resolved.credential.kind === 'oauth' && resolved.credential.refresh_token) {
      const { oauthCredentialProvider } = await import('./auth/oauth-refresh.js');
      return oauthCredentialProvider(this, resolved);
    }
    const { staticBearer, bearerValue } = await import('./auth/credentials.js');
    return staticBearer(bearerValue(resolved.credential));
  }

  /** For a profile on a local sandbox (logged out, or never given a key): how to get its key back. */
  private async sandboxHint(profile: string): Promise<string[]> {
    const baseUrl = (await this.config()).profile(profile)?.base_url;
    // The loopback test the client itself makes before it sends a credential over plain http.
    const { isLoopbackHost } = await import('./api/loopback.js');
    const url = baseUrl === undefined ? null : URL.parse(baseUrl);
    const local = url?.protocol === 'http:' && isLoopbackHost(url.hostname);
    if (profile !== 'sandbox' && !local) return [];
    const { setVariablesPhrase } = await import('./output/platform-words.js');
    return [
      'A local sandbox: restart it with `msgctl sandbox --write-profile`, which writes its new API key into the "sandbox" profile',
      `(or ${setVariablesPhrase(['MSGCTL_API_KEY'])} with the key the running sandbox printed).`,
    ];
  }

  /** An API client with this command's base URL, timeouts, retries and logging, for the given credential. */
  async clientFor(credential: CredentialProvider): Promise<ApiClient> {
    const [[{ ApiClient }, { checkBaseUrl }, { USER_AGENT }], transport] = await Promise.all([clientModules(), this.services.transport()]);
    const baseUrl = checkBaseUrl(await this.baseUrl(), true);
    return new ApiClient({
      baseUrl,
      credential,
      transport,
      userAgent: USER_AGENT,
      timeoutMs: this.opts.timeout * 1000,
      retries: this.opts.retries,
      log: this.opts.verbose ? (line) => this.verbose(line) : undefined,
    });
  }

  /** Keys this command sent that a re-run can send again, and how (Context.rerunWith). */
  private readonly rerunKeys = new Map<string, 'flag' | 'header'>();

  idempotencyKey(given?: string): string {
    const key = given === undefined ? randomUuid() : idempotencyKeyFlag(given);
    this.rerunKeys.set(key, 'flag');
    return key;
  }

  freshIdempotencyKey(): string {
    return randomUuid();
  }

  headerIdempotencyKey(key: string): string {
    this.rerunKeys.set(key, 'header');
    return key;
  }

  rerunWith(key: string): 'flag' | 'header' | undefined {
    return this.rerunKeys.get(key);
  }
}

function clientModules() {
  return Promise.all([import('./api/client.js'), import('./api/transport.js'), import('./version.js')]);
}
