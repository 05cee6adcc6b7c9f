"""Detection rules for provider tokens and private keys, by prefix, shape and checksum.

Every pattern starts with a distinctive literal (``ghp_``, ``AKIA``, ``-----BEGIN``) or
names its keywords, so a note without secrets costs one pass of the first gate. The
example keys vendors print in their documentation are kept (``checks._placeholders``).

Decisions on debatable values:

* Stripe test keys (``sk_test_``, ``rk_test_``) are redacted: they read and write the
  account's test-mode data. Publishable keys (``pk_``) are public by design and kept.
* Twilio API key SIDs (``SK`` + 32 hex) are redacted, as GitHub's secret scanning
  does: half of a credential pair. Account SIDs (``AC`` + 32 hex) are identifiers
  that appear in every Twilio URL and are kept.
"""

from __future__ import annotations

from dataclasses import replace

from .. import checks
from .._rule import Rule
from ._fragments import ASSIGN, secret_rule

# What follows a token: a character that cannot be part of it, or the end of the text.
_END = r"(?:[^A-Za-z0-9_-]|$)"
# The armour lines of a PEM private key, in every flavour (PKCS#1, PKCS#8, EC, DSA,
# encrypted, OpenSSH, PGP's "PRIVATE KEY BLOCK"), with four or five dashes.
_PEM = r"-{4,5} ?BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)? ?-{4,5}"
_PEM_END = r"-{4,5} ?END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)? ?-{4,5}"

_RULES: tuple[Rule, ...] = (
    # --- Private keys: blocked by the default policy, so every format shares one rule.
    secret_rule(
        "private_key",
        r"(?:" + _PEM + r"(?:[\s\S]*?" + _PEM_END + r"|(?:\s|\\[rn])+(?:[A-Za-z-]+: ?[^\r\n]*"
        r"(?:\r?\n|\\n))*(?:\s|\\[rn])*[A-Za-z0-9+/=]{40}(?:[A-Za-z0-9+/=\r\n]|\\[rn])*)"
        r"|PuTTY-User-Key-File-\d+: [^\r\n]*[\s\S]*?Private-MAC: [0-9a-fA-F]+"
        r"|AGE-SECRET-KEY-(?:PQ-)?1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]*)",
        "private key|putty-user-key-file|age-secret-key-",
        "PEM (PKCS#1, PKCS#8, encrypted, EC, DSA, PGP), OpenSSH, SSH2 and PuTTY private "
        "keys, multi-line or JSON-escaped (service-account files), cut-off keys, and age "
        "secret keys (bech32 checksum)",
        kind="private_key",
        validator=checks.private_key,
        priority=60,
        min_entropy=0.0,
    ),
    secret_rule(
        "private_key_base64",
        r"\b(?P<value>LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2})",
        "ls0tls1crudjti",
        "PEM private keys in base64, as kubeconfig's client-key-data and Kubernetes "
        "Secrets carry them (the decoded first line must name a private key)",
        kind="private_key",
        validator=checks.base64_private_key,
        priority=60,
        min_entropy=0.0,
    ),
    # --- Source hosting and package registries.
    secret_rule(
        "github_token",
        r"\b(?P<value>gh[pousr]_[A-Za-z0-9]{36})\b",
        "ghp_|gho_|ghu_|ghs_|ghr_",
        "GitHub classic, OAuth, user-to-server, app installation and refresh tokens (CRC32)",
        validator=checks.github_or_npm_token,
    ),
    secret_rule(
        "github_fine_grained_token",
        r"\b(?P<value>github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b",
        "github_pat_",
        "GitHub fine-grained personal access tokens",
    ),
    secret_rule(
        "gitlab_token",
        r"\b(?P<value>(?:gl(?:pat|dt|rt|ft|soat|ffct|imt|agent|oas|cbt|wt)-"
        r"|GR1348941)[0-9A-Za-z_-]{20,300}(?:\.[0-9a-z]{2}(?:\.[0-9a-z]{9}|[0-9a-z]{7}))?|glptt-[0-9a-f]{40})"
        + _END,
        (
            "glpat-|gldt-|glrt-|glft-|glsoat-|glffct-|glimt-|glagent-|gloas-|glcbt-|glwt-|"
            "glptt-|gr1348941"
        ),
        "GitLab personal, deploy, runner, feed, trigger, agent, OAuth and CI tokens, "
        "legacy and routable",
    ),
    secret_rule(
        "npm_token",
        r"\b(?P<value>npm_[A-Za-z0-9]{36})\b",
        "npm_",
        "npm access tokens (CRC32, GitHub's format)",
        validator=checks.github_or_npm_token,
    ),
    secret_rule(
        "pypi_token",
        r"\b(?P<value>pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50}"
        r"[A-Za-z0-9_-]*)",
        "pypi-",
        "PyPI and TestPyPI API tokens (macaroons for pypi.org)",
    ),
    secret_rule(
        "rubygems_token",
        r"\b(?P<value>rubygems_[a-f0-9]{48})\b",
        "rubygems_",
        "RubyGems API keys",
    ),
    secret_rule(
        "dockerhub_token",
        r"\b(?P<value>dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,64})" + _END,
        "dckr_",
        "Docker Hub personal and organization access tokens",
    ),
    secret_rule(
        "huggingface_token",
        r"\b(?P<value>(?:hf_|api_org_)[A-Za-z0-9]{34})\b",
        "hf_|api_org_",
        "Hugging Face user and organization tokens",
        validator=checks.mixed_case,
    ),
    # --- Chat and messaging.
    secret_rule(
        "slack_token",
        r"\b(?P<value>xox(?:[abeoprs]|e\.xox[bp])-[0-9A-Za-z-]{10,250}"
        r"|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)",
        "xox|xapp-",
        "Slack bot, user, app, configuration, refresh and legacy tokens",
        validator=checks.slack_token,
    ),
    secret_rule(
        "slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/"
        r"(?P<value>T[A-Z0-9]{6,12}/[A-Za-z0-9/_-]{20,200})",
        "hooks.slack.com",
        "Slack incoming-webhook and workflow URLs (the path is the credential)",
    ),
    secret_rule(
        "discord_bot_token",
        r"\b(?P<value>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}"
        r"\.[A-Za-z0-9_-]{27,40})(?:[^A-Za-z0-9_.-]|$)",
        "",
        "Discord bot tokens (first part is the bot id in base64)",
        validator=checks.discord_bot_token,
    ),
    secret_rule(
        "discord_webhook",
        r"(?i)https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/"
        r"\d{17,20}/(?P<value>[A-Za-z0-9_-]{60,70})",
        "discord",
        "Discord webhook URLs (the last segment is the credential)",
    ),
    secret_rule(
        "telegram_bot_token",
        r"(?:^|[^0-9])(?P<value>[0-9]{8,10}:A[0-9A-Za-z_-]{34})",
        "",
        "Telegram bot tokens",
        min_entropy=3.5,
    ),
    secret_rule(
        "twilio_api_key",
        r"\b(?P<value>SK[0-9a-fA-F]{32})\b",
        "",
        "Twilio API key SIDs (account SIDs, AC..., are identifiers and kept)",
        validator=lambda value: checks.real(value) and any(c.isalpha() for c in value[2:]),
    ),
    secret_rule(
        "sendgrid_key",
        r"\b(?P<value>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})" + _END,
        "sg.",
        "SendGrid API keys",
    ),
    secret_rule(
        "mailgun_key",
        r"\b(?P<value>key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})\b",
        "mailgun",
        "Mailgun private API and signing keys, next to the word mailgun",
        context="mailgun",
        window=120,
    ),
    # --- AI providers.
    secret_rule(
        "anthropic_key",
        r"\b(?P<value>sk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{32,200})",
        "sk-ant-",
        "Anthropic API, admin and OAuth keys",
        min_entropy=3.5,
    ),
    secret_rule(
        "openai_key",
        r"\b(?P<value>sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,250}"
        r"|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}))" + _END,
        "sk-",
        "OpenAI project, service-account, admin and legacy keys (T3BlbkFJ marker)",
        min_entropy=3.5,
    ),
    secret_rule(
        "ai_provider_key",
        r"\b(?P<value>sk-or-v1-[a-f0-9]{64}|gsk_[A-Za-z0-9]{52}|pplx-[A-Za-z0-9]{48}"
        r"|xai-[A-Za-z0-9]{80}|r8_[A-Za-z0-9]{37}|lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})\b",
        "sk-or-|gsk_|pplx-|xai-|r8_|lsv2_",
        "OpenRouter, Groq, Perplexity, xAI, Replicate and LangSmith keys",
    ),
    # --- Cloud providers.
    secret_rule(
        "aws_access_key_id",
        r"\b(?P<value>(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
        "",
        "AWS access key ids",
        validator=checks.aws_key_id,
        min_entropy=0.0,
    ),
    secret_rule(
        "aws_secret_access_key",
        r"(?i)(?:secret[_ .-]?access[_ .-]?key|aws[_ .-]?secret[_ .-]?(?:access[_ .-]?)?key"
        r"|aws[_ .-]?secret)" + ASSIGN + r"(?P<value>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)",
        "secret",
        "AWS secret access keys after their name (env, credentials file, JSON)",
        validator=checks.real,
        min_entropy=4.0,
    ),
    secret_rule(
        "aws_secret_near_key_id",
        r"(?:^|[^A-Za-z0-9/+=])(?P<value>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)",
        "akia",
        "40-character AWS secret keys shortly after an access key id",
        validator=checks.machine_made,
        min_entropy=4.2,
        context="akia|secret access key",
        window=160,
        priority=35,
    ),
    secret_rule(
        "aws_session_token",
        r"(?P<value>(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz)[A-Za-z0-9/+=]{100}"
        r"[A-Za-z0-9/+=]*)",
        "iqojb3jpz2lu|fwogzxivyxdz|fqogzxivyxdz",
        "AWS STS session tokens, by their encoded header",
        priority=41,
    ),
    secret_rule(
        "aws_session_token_assignment",
        r"(?i)(?:aws[_-]?session[_-]?token|aws[_-]?security[_-]?token|sessiontoken"
        r"|x-amz-security-token)" + ASSIGN + r"(?P<value>[A-Za-z0-9/+=%]{100}[A-Za-z0-9/+=%]*)",
        "token",
        "AWS session tokens after their name",
    ),
    secret_rule(
        "google_api_key",
        r"\b(?P<value>AIza[0-9A-Za-z_-]{35})" + _END,
        "aiza",
        "Google API keys",
    ),
    secret_rule(
        "google_oauth_secret",
        r"\b(?P<value>GOCSPX-[A-Za-z0-9_-]{28}|ya29\.[0-9A-Za-z_-]{30}[0-9A-Za-z_-]*)" + _END,
        "gocspx-|ya29.",
        "Google OAuth client secrets and access tokens",
    ),
    secret_rule(
        "azure_storage_key",
        r"(?i)(?:AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)[ \t]*=[ \t]*"
        r"(?P<value>[A-Za-z0-9+/]{40,100}={0,2})",
        "accountkey|sharedaccesskey|primarykey|secondarykey",
        "Azure storage, Service Bus, Event Hubs and IoT Hub keys in connection strings",
    ),
    secret_rule(
        "azure_client_secret",
        r"(?:^|[^A-Za-z0-9_~.-])(?P<value>[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34})",
        "q~",
        "Azure AD (Entra) application client secrets",
    ),
    secret_rule(
        "azure_sas_signature",
        r"(?i)[?&;]sig=(?P<value>(?:[A-Za-z0-9+/]|%2[BF]){43}(?:%3D|=))",
        "sig=",
        "Azure shared access signatures (the HMAC in sig=)",
    ),
    secret_rule(
        "digitalocean_token",
        r"\b(?P<value>do[opr]_v1_[0-9a-f]{64})\b",
        "dop_v1_|doo_v1_|dor_v1_",
        "DigitalOcean personal, OAuth and refresh tokens",
    ),
    secret_rule(
        "cloudflare_token",
        r"\b(?P<value>cf(?:k|ut|at)_[A-Za-z0-9]{40,50})\b",
        "cfk_|cfut_|cfat_",
        "Cloudflare API keys and tokens (scannable format)",
    ),
    secret_rule(
        "cloudflare_key_assignment",
        r"(?i)\b(?:cloudflare|cf)[_ -]?(?:api[_ -]?|global[_ -]?api[_ -]?|auth[_ -]?)?"
        r"(?:token|key)" + ASSIGN + r"(?P<value>[A-Za-z0-9_-]{40}|[0-9a-f]{37})" + _END,
        "cloudflare|cf_|cf-|cf ",
        "legacy Cloudflare API tokens and global keys after their name",
    ),
    secret_rule(
        "heroku_api_key",
        r"\b(?P<value>HRKU-AA[0-9A-Za-z_-]{58})" + _END,
        "hrku-",
        "Heroku API keys (HRKU- format)",
    ),
    secret_rule(
        "heroku_api_key_assignment",
        r"(?i)heroku[_ -]?(?:api[_ -]?|oauth[_ -]?)?(?:key|token|auth[_ -]?token|password|secret)"
        + ASSIGN
        + r"(?P<value>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
        "heroku",
        "legacy Heroku API keys (UUID-shaped) after their name",
        min_entropy=0.0,
    ),
    secret_rule(
        "databricks_token",
        r"\b(?P<value>dapi[0-9a-f]{32}(?:-\d)?)\b",
        "dapi",
        "Databricks personal access tokens",
    ),
    secret_rule(
        "datadog_key",
        r"(?i)\b(?:dd|datadog)[_ -]?(?:api|app(?:lication)?)[_ -]?key"
        + ASSIGN
        + r"(?P<value>[0-9a-f]{40}|[0-9a-f]{32})\b",
        "dd_|dd-|datadog",
        "Datadog API and application keys after their name",
    ),
    secret_rule(
        "hashicorp_vault_token",
        r"\b(?P<value>hv[sbr]\.[A-Za-z0-9_-]{24,400})" + _END,
        "hvs.|hvb.|hvr.",
        "HashiCorp Vault service, batch and recovery tokens",
        min_entropy=3.5,
    ),
    secret_rule(
        "terraform_cloud_token",
        r"\b(?P<value>[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70})" + _END,
        "atlasv1",
        "Terraform Cloud / Enterprise API tokens",
    ),
    secret_rule(
        "airtable_token",
        # pat + 14 characters (the token id), a dot, and 64 hex of secret.
        r"\b(?P<value>pat[A-Za-z0-9]{14}\.[a-f0-9]{64})" + _END,
        "pat",
        "Airtable personal access tokens",
    ),
    secret_rule(
        "saas_token",
        r"\b(?P<value>ATATT3[A-Za-z0-9_=-]{150,250}|ATCTT3[A-Za-z0-9_=-]{150,250}"
        r"|lin_(?:api|oauth)_[A-Za-z0-9]{40,64}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}"
        r"|glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
        r"|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|sntrys_[A-Za-z0-9+/=_-]{80,400}"
        r"|sntryu_[a-f0-9]{64}|dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}"
        r"|pul-[a-f0-9]{40}|sbp_[a-f0-9]{40}|ntn_[A-Za-z0-9]{46}|figd_[A-Za-z0-9_-]{40}"
        r"|nfp_[A-Za-z0-9]{36}|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}"
        r"|NRAK-[A-Z0-9]{27}|dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}|CFPAT-[A-Za-z0-9_-]{43}"
        r"|tskey-(?:api|auth|client|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}"
        r"|bkua_[a-f0-9]{40}|sgp_[A-Za-z0-9_]{40,80}|EAAA[A-Za-z0-9_-]{60}"
        r"|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}|whsec_[A-Za-z0-9+/=]{32,})" + _END,
        (
            "atatt3|atctt3|lin_api_|lin_oauth_|pmak-|glc_|glsa_|shpat_|shpca_|shppa_|shpss_|"
            "sntrys_|sntryu_|dp.|pul-|sbp_|ntn_|figd_|nfp_|pscale_|nrak-|dt0c01.|cfpat-|"
            "tskey-|bkua_|sgp_|eaaa|sq0|whsec_"
        ),
        "Atlassian, Linear, Postman, Grafana, Shopify, Sentry, Doppler, Pulumi, Supabase, "
        "Notion, Figma, Netlify, PlanetScale, New Relic, Dynatrace, Contentful, Tailscale, "
        "Buildkite, Sourcegraph, Square and webhook-signing secrets",
    ),
    secret_rule(
        "stripe_key",
        r"\b(?P<value>(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,247})\b",
        "sk_live_|sk_test_|rk_live_|rk_test_",
        "Stripe secret and restricted keys, live and test (publishable pk_ keys are kept)",
    ),
    secret_rule(
        "sentry_dsn",
        r"(?i)https?://(?P<value>[0-9a-f]{32}(?::[0-9a-f]{32})?)@[a-z0-9.-]+(?::\d+)?"
        r"/(?:[a-z0-9_-]+/)*\d+\b",
        "sentry|dsn",
        "Sentry DSN keys (and the secret of legacy DSNs)",
        min_entropy=0.0,
    ),
    # --- Tokens by shape.
    secret_rule(
        "jwt",
        r"\b(?P<value>e[wy][A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}"
        r"\.[A-Za-z0-9_-]{16,})",
        "ey|ew",
        "JSON Web Tokens, signed (JWS) or encrypted (JWE); header checked as JSON",
        kind="jwt",
        validator=checks.jwt,
        priority=35,
        min_entropy=0.0,
    ),
)

# A provider's prefix is as rare as its tokens, so the first pass looks for the keywords
# alone; the few shapes without a prefix share one small set of their own.
RULES: tuple[Rule, ...] = tuple(
    replace(rule, gate="keywords" if rule.keywords else "tokens") for rule in _RULES
)
