"""The secret detectors: provider tokens, keys, credentials, and their look-alikes.

Every token here is generated at run time in the right shape (with a valid
checksum where the format has one) from random bytes, so no literal in this
file is a credential and secret scanners have nothing to find in the repository.
"""

from __future__ import annotations

import base64
import json
import secrets
import string
import zlib
from collections.abc import Callable

import pytest
import re2

from memvault import BlockedError
from memvault.redaction import BUILTIN, Redactor, load
from tests.corpus import generate

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
# The secret rules in the order the policy registers them.
RULES = tuple(rule for rule in BUILTIN.values() if rule.category == "secret")


@pytest.fixture(scope="module")
def redactor() -> Redactor:
    return load().redactor


def rand(alphabet: str, n: int) -> str:
    """n characters drawn from alphabet; 8 or more mix every class the alphabet has."""
    wants = [set(string.digits), set(string.ascii_uppercase), set(string.ascii_lowercase)]
    while True:
        value = "".join(secrets.choice(alphabet) for _ in range(n))
        if n < 8 or all(not (w & set(alphabet)) or w & set(value) for w in wants):
            return value


def crc_token(prefix: str) -> str:
    """A GitHub-format token: 30 random base62 characters and their base62 CRC32."""
    body = rand(ALNUM, 30)
    crc, digits = zlib.crc32(body.encode()), ""
    while crc:
        crc, rem = divmod(crc, 62)
        digits = BASE62[rem] + digits
    return prefix + body + digits.rjust(6, "0")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt() -> str:
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps({"sub": secrets.token_hex(8), "exp": 1999999999}).encode())
    return f"{header}.{payload}.{b64url(secrets.token_bytes(32))}"


def age_key() -> str:
    """An age X25519 identity: bech32 of 32 random bytes under hrp age-secret-key-."""
    hrp, data = "age-secret-key-", secrets.token_bytes(32)
    acc, bits, words = 0, 0, []
    for byte in data:
        acc, bits = acc << 8 | byte, bits + 8
        while bits >= 5:
            bits -= 5
            words.append(acc >> bits & 31)
    if bits:
        words.append(acc << (5 - bits) & 31)
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    check = 1
    for item in [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + words + [0] * 6:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ item
        for i, g in enumerate(gen):
            if top >> i & 1:
                check ^= g
    check ^= 1
    words += [check >> 5 * (5 - i) & 31 for i in range(6)]
    return (hrp + "1" + "".join(BECH32[w] for w in words)).upper()


def discord_token() -> str:
    user_id = str(10**17 + secrets.randbelow(9 * 10**17)).encode()
    return f"{b64url(user_id)}.{rand(URLSAFE, 6)}.{rand(URLSAFE, 38)}"


def pem(label: str = "PRIVATE KEY", lines: int = 4, newline: str = "\n") -> str:
    body = newline.join(rand(B64, 64) for _ in range(lines))
    return f"-----BEGIN {label}-----{newline}{body}{newline}-----END {label}-----"


def secret_findings(redactor: Redactor, text: str) -> list[tuple[str, str, str]]:
    return [
        (f.rule, f.kind, text[f.start : f.end])
        for f in redactor.scan(text)
        if f.category == "secret"
    ]


def redacted(redactor: Redactor, text: str) -> str:
    return redactor.apply(text, lambda kind, value: "0123456789").text


# (id, builder of (text, secret value), rule, kind)
Case = tuple[str, Callable[[], tuple[str, str]], str, str]


def _in(template: str, value: str) -> tuple[str, str]:
    return template.format(v=value), value


POSITIVE: list[Case] = [
    ("github_pat", lambda: _in("export GITHUB_TOKEN={v}", crc_token("ghp_")),
     "github_token", "api_key"),
    ("github_oauth_json", lambda: _in('{{"token": "{v}", "scope": "repo"}}', crc_token("gho_")),
     "github_token", "api_key"),
    ("github_app_installation", lambda: _in("git clone https://x-access-token:{v}@github.com/o/r",
                                            crc_token("ghs_")), "github_token", "api_key"),
    ("github_refresh", lambda: _in("refresh={v}", crc_token("ghr_")), "github_token", "api_key"),
    ("github_fine_grained", lambda: _in("GH_TOKEN: {v}",
                                        f"github_pat_{rand(ALNUM, 22)}_{rand(ALNUM, 59)}"),
     "github_fine_grained_token", "api_key"),
    ("gitlab_pat", lambda: _in("PRIVATE-TOKEN glpat-ish {v}", "glpat-" + rand(URLSAFE, 20)),
     "gitlab_token", "api_key"),
    ("gitlab_routable", lambda: _in("token {v} ok",
                                    f"glpat-{rand(URLSAFE, 40)}.01.{rand(HEX, 9)}"),
     "gitlab_token", "api_key"),
    ("gitlab_deploy", lambda: _in("gldt: {v}", "gldt-" + rand(URLSAFE, 20)),
     "gitlab_token", "api_key"),
    ("gitlab_runner", lambda: _in("runner {v}", "glrt-" + rand(URLSAFE, 20)),
     "gitlab_token", "api_key"),
    ("gitlab_trigger", lambda: _in("curl -F token={v}", "glptt-" + rand(HEX, 40)),
     "gitlab_token", "api_key"),
    ("gitlab_registration", lambda: _in("register {v}", "GR1348941" + rand(URLSAFE, 20)),
     "gitlab_token", "api_key"),
    ("npm", lambda: _in("//registry.npmjs.org/:_authToken={v}", crc_token("npm_")),
     "npm_token", "api_key"),
    ("pypi", lambda: _in("password = {v}", "pypi-AgEIcHlwaS5vcmc" + rand(URLSAFE, 120)),
     "pypi_token", "api_key"),
    ("dockerhub", lambda: _in("docker login -u me --password-stdin <<< {v}",
                              "dckr_pat_" + rand(URLSAFE, 27)), "dockerhub_token", "api_key"),
    ("huggingface", lambda: _in("HF_TOKEN={v}", "hf_" + rand(string.ascii_letters, 34)),
     "huggingface_token", "api_key"),
    ("slack_bot", lambda: _in("SLACK_BOT_TOKEN={v}",
                              f"xoxb-{rand(string.digits, 12)}-{rand(string.digits, 13)}-"
                              f"{rand(ALNUM, 24)}"), "slack_token", "api_key"),
    ("slack_user", lambda: _in("token: {v}", f"xoxp-{rand(string.digits, 12)}-"
                               f"{rand(string.digits, 12)}-{rand(string.digits, 13)}-"
                               f"{rand(HEX, 32)}"), "slack_token", "api_key"),
    ("slack_app", lambda: _in("app token {v}", f"xapp-1-A{rand(string.digits, 10)}-"
                              f"{rand(string.digits, 13)}-{rand(HEX, 64)}"),
     "slack_token", "api_key"),
    ("slack_webhook", lambda: _in("https://hooks.slack.com/services/{v}",
                                  f"T{rand(string.ascii_uppercase, 8)}/"
                                  f"B{rand(string.ascii_uppercase, 10)}/{rand(ALNUM, 24)}"),
     "slack_webhook", "api_key"),
    ("stripe_live", lambda: _in("Stripe.api_key = '{v}'", "sk_live_" + rand(ALNUM, 24)),
     "stripe_key", "api_key"),
    ("stripe_test", lambda: _in("STRIPE_SECRET_KEY={v}", "sk_test_" + rand(ALNUM, 99)),
     "stripe_key", "api_key"),
    ("stripe_restricted", lambda: _in("key {v}", "rk_live_" + rand(ALNUM, 24)),
     "stripe_key", "api_key"),
    ("anthropic", lambda: _in("ANTHROPIC_API_KEY={v}",
                              "sk-ant-api03-" + rand(URLSAFE, 93) + "AA"),
     "anthropic_key", "api_key"),
    ("anthropic_admin", lambda: _in("admin key: {v}",
                                    "sk-ant-admin01-" + rand(URLSAFE, 93) + "AA"),
     "anthropic_key", "api_key"),
    ("openai_project", lambda: _in("OPENAI_API_KEY=\"{v}\"",
                                   f"sk-proj-{rand(URLSAFE, 74)}T3BlbkFJ{rand(URLSAFE, 74)}"),
     "openai_key", "api_key"),
    ("openai_service", lambda: _in("key={v}", f"sk-svcacct-{rand(URLSAFE, 58)}T3BlbkFJ"
                                   f"{rand(URLSAFE, 58)}"), "openai_key", "api_key"),
    ("openai_legacy", lambda: _in("openai.api_key = {v}",
                                  f"sk-{rand(ALNUM, 20)}T3BlbkFJ{rand(ALNUM, 20)}"),
     "openai_key", "api_key"),
    ("google_api", lambda: _in("https://maps.googleapis.com/maps/api/js?key={v}&v=3",
                               "AIza" + rand(URLSAFE, 35)), "google_api_key", "api_key"),
    ("google_oauth_secret", lambda: _in('"client_secret": "{v}"',
                                        "GOCSPX-" + rand(URLSAFE, 28)),
     "google_oauth_secret", "api_key"),
    ("azure_storage", lambda: _in("DefaultEndpointsProtocol=https;AccountName=acct;"
                                  "AccountKey={v};EndpointSuffix=core.windows.net",
                                  rand(B64, 86) + "=="), "azure_storage_key", "api_key"),
    ("azure_client_secret", lambda: _in("AZURE_CLIENT_SECRET={v}",
                                        f"{rand(ALNUM, 3)}8Q~{rand(ALNUM + '_~.-', 34)}"),
     "azure_client_secret", "api_key"),
    ("azure_sas", lambda: _in("https://acct.blob.core.windows.net/c/f.txt?sig={v}"
                              "&se=2030-01-01T00%3A00%3A00Z&sv=2022-11-02&sp=r",
                              rand(ALNUM, 40) + "%2B" + rand(ALNUM, 2) + "%3D"),
     "azure_sas_signature", "api_key"),
    ("aws_key_id", lambda: _in("aws_access_key_id = {v}",
                               "AKIA" + rand(string.ascii_uppercase + "234567", 16)),
     "aws_access_key_id", "api_key"),
    ("aws_secret", lambda: _in("aws_secret_access_key = {v}", rand(B64, 40)),
     "aws_secret_access_key", "api_key"),
    ("aws_secret_json", lambda: _in('{{"SecretAccessKey": "{v}", "Expiration": "x"}}',
                                    rand(B64, 40)), "aws_secret_access_key", "api_key"),
    ("aws_session", lambda: _in("AWS_SESSION_TOKEN={v}",
                                "IQoJb3JpZ2luX2VjE" + rand(B64, 300)),
     "aws_session_token", "api_key"),
    ("aws_session_context", lambda: _in("aws_session_token = {v}", rand(B64, 200)),
     "aws_session_token_assignment", "api_key"),
    ("twilio_api_key", lambda: _in("TWILIO_API_KEY={v}", "SK" + rand(HEX, 32)),
     "twilio_api_key", "api_key"),
    ("sendgrid", lambda: _in("SENDGRID_API_KEY='{v}'",
                             f"SG.{rand(URLSAFE, 22)}.{rand(URLSAFE, 43)}"),
     "sendgrid_key", "api_key"),
    ("datadog_api", lambda: _in("DD_API_KEY={v}", rand(HEX, 32)), "datadog_key", "api_key"),
    ("datadog_app", lambda: _in("datadog_app_key: {v}", rand(HEX, 40)), "datadog_key",
     "api_key"),
    ("heroku_new", lambda: _in("HEROKU_API_KEY={v}", "HRKU-AA" + rand(URLSAFE, 58)),
     "heroku_api_key", "api_key"),
    ("heroku_uuid", lambda: _in("HEROKU_API_KEY={v}", "-".join(
        rand(HEX, n) for n in (8, 4, 4, 4, 12))), "heroku_api_key_assignment", "api_key"),
    ("shopify", lambda: _in("X-Shopify-Access-Token {v}", "shpat_" + rand(HEX, 32)),
     "saas_token", "api_key"),
    ("mailgun", lambda: _in("mailgun api key {v}", "key-" + rand(HEX, 32)),
     "mailgun_key", "api_key"),
    ("sentry_token", lambda: _in("SENTRY_AUTH_TOKEN={v}", "sntryu_" + rand(HEX, 64)),
     "saas_token", "api_key"),
    ("sentry_dsn", lambda: _in("SENTRY_DSN=https://{v}@o123456.ingest.sentry.io/4504",
                               rand(HEX, 32)), "sentry_dsn", "api_key"),
    ("databricks", lambda: _in("DATABRICKS_TOKEN={v}", "dapi" + rand(HEX, 32)),
     "databricks_token", "api_key"),
    ("digitalocean", lambda: _in("doctl auth init -t {v}", "dop_v1_" + rand(HEX, 64)),
     "digitalocean_token", "api_key"),
    ("telegram", lambda: _in("https://api.telegram.org/bot{v}/getMe",
                             f"{rand(string.digits, 10)}:AA{rand(URLSAFE, 33)}"),
     "telegram_bot_token", "api_key"),
    ("discord_bot", lambda: _in("client.run('{v}')", discord_token()),
     "discord_bot_token", "api_key"),
    ("discord_webhook", lambda: _in("https://discord.com/api/webhooks/123456789012345678/{v}",
                                    rand(URLSAFE, 68)), "discord_webhook", "api_key"),
    ("vault_service", lambda: _in("VAULT_TOKEN={v}", "hvs." + rand(URLSAFE, 91)),
     "hashicorp_vault_token", "api_key"),
    ("vault_batch", lambda: _in("X-Vault-Token: {v}", "hvb." + rand(URLSAFE, 150)),
     "hashicorp_vault_token", "api_key"),
    ("terraform", lambda: _in('token = "{v}"',
                              f"{rand(ALNUM, 14)}.atlasv1.{rand(URLSAFE, 67)}"),
     "terraform_cloud_token", "api_key"),
    ("atlassian", lambda: _in("JIRA_API_TOKEN={v}", "ATATT3xFfGF0" + rand(URLSAFE, 180)),
     "saas_token", "api_key"),
    ("linear", lambda: _in("LINEAR_API_KEY={v}", "lin_api_" + rand(ALNUM, 40)),
     "saas_token", "api_key"),
    ("postman", lambda: _in("x-api-key: {v}", f"PMAK-{rand(HEX, 24)}-{rand(HEX, 34)}"),
     "saas_token", "api_key"),
    ("grafana_cloud", lambda: _in("GRAFANA_TOKEN={v}", "glc_" + rand(B64, 120)),
     "saas_token", "api_key"),
    ("grafana_sa", lambda: _in("Bearer {v}", f"glsa_{rand(ALNUM, 32)}_{rand(HEX, 8)}"),
     "saas_token", "api_key"),
    ("stripe_webhook", lambda: _in("STRIPE_WEBHOOK_SECRET={v}", "whsec_" + rand(ALNUM, 32)),
     "saas_token", "api_key"),
    ("cloudflare_new", lambda: _in("CLOUDFLARE_API_TOKEN={v}", "cfut_" + rand(ALNUM, 46)),
     "cloudflare_token", "api_key"),
    ("cloudflare_legacy", lambda: _in("CLOUDFLARE_API_TOKEN={v}", rand(URLSAFE, 40)),
     "cloudflare_key_assignment", "api_key"),
    ("age", lambda: _in("# created: 2024-01-01\n{v}\n", age_key()), "private_key",
     "private_key"),
    ("jwt", lambda: _in("id_token={v}", jwt()), "jwt", "jwt"),
    ("jwt_in_header", lambda: _in("Authorization: Bearer {v}", jwt()), "jwt", "jwt"),
    ("postgres_url", lambda: _in("DATABASE_URL=postgres://app:{v}@db.internal:5432/app",
                                 rand(ALNUM, 16)), "url_credentials", "credential"),
    ("mongodb_srv", lambda: _in("mongodb+srv://admin:{v}@cluster0.abcde.mongodb.net/",
                                rand(ALNUM, 12)), "url_credentials", "credential"),
    ("redis_no_user", lambda: _in("REDIS_URL=rediss://:{v}@cache:6380/0", rand(ALNUM, 20)),
     "url_credentials", "credential"),
    ("amqp", lambda: _in("amqp://guest:{v}@rabbit:5672/vhost", rand(ALNUM, 10) + "!"),
     "url_credentials", "credential"),
    ("mysql_at_in_password", lambda: _in("mysql://root:{v}@localhost/db", "p@ss" + rand(ALNUM, 6)),
     "url_credentials", "credential"),
    ("sqlalchemy", lambda: _in("postgresql+psycopg2://u:{v}@h/d", rand(ALNUM, 14)),
     "url_credentials", "credential"),
    ("jdbc_param", lambda: _in("jdbc:mysql://db:3306/app?user=app&password={v}&ssl=true",
                               rand(ALNUM, 14)), "jdbc_password", "credential"),
    ("jdbc_sqlserver", lambda: _in("jdbc:sqlserver://db;user=sa;password={v};encrypt=true",
                                   rand(ALNUM, 14)), "jdbc_password", "credential"),
    ("jdbc_oracle", lambda: _in("jdbc:oracle:thin:scott/{v}@db:1521:ORCL", rand(ALNUM, 10)),
     "jdbc_password", "credential"),
    ("env_password", lambda: _in("DB_PASSWORD={v}", rand(ALNUM, 12)), "password_assignment",
     "password"),
    ("yaml_password", lambda: _in("database:\n  password: {v}\n  host: db", rand(ALNUM, 12)),
     "password_assignment", "password"),
    ("json_password", lambda: _in('{{"password": "{v}", "user": "bob"}}', rand(ALNUM, 12)),
     "password_assignment_quoted", "password"),
    ("toml_password_spaces", lambda: _in('password = "{v}"', "correct horse 42"),
     "password_assignment_quoted", "password"),
    ("ini_passwd", lambda: _in("[db]\npasswd = {v}\n", rand(ALNUM, 10)),
     "password_assignment", "password"),
    ("code_password", lambda: _in('connect(host="db", password="{v}")', rand(ALNUM, 10)),
     "password_assignment_quoted", "password"),
    ("cli_password_flag", lambda: _in("pg_dump --password={v} app", rand(ALNUM, 10)),
     "password_assignment", "password"),
    ("mysql_p", lambda: _in("mysql -u root -p{v} app", rand(ALNUM, 10)),
     "cli_password", "password"),
    ("curl_user", lambda: _in("curl -u admin:{v} https://api.internal/", rand(ALNUM, 10)),
     "cli_password", "password"),
    ("netrc", lambda: _in("machine api.example.org login bob password {v}", rand(ALNUM, 10)),
     "netrc_password", "password"),
    ("env_secret", lambda: _in("export APP_SECRET={v}", rand(ALNUM, 32)),
     "secret_assignment", "secret"),
    ("passwort_colon", lambda: _in("Passwort: {v}", "Sommer2024!"), "password_assignment",
     "password"),
    ("client_secret_yaml", lambda: _in("oauth:\n  client_secret: {v}\n", rand(URLSAFE, 34)),
     "secret_assignment", "secret"),
    ("api_key_camel", lambda: _in("const apiKey = '{v}';", rand(ALNUM, 32)),
     "secret_assignment_quoted", "secret"),
    ("token_prose", lambda: _in("the api key is {v}", rand(ALNUM, 24)),
     "secret_assignment", "secret"),
    ("basic_auth", lambda: _in("Authorization: Basic {v}",
                               base64.b64encode(f"bob:{rand(ALNUM, 12)}".encode()).decode()),
     "auth_header", "auth_header"),
    ("bearer_opaque", lambda: _in("curl -H 'Authorization: Bearer {v}' https://x",
                                  rand(ALNUM, 40)), "auth_header", "auth_header"),
    ("api_key_header", lambda: _in("X-API-Key: {v}", rand(ALNUM, 32)), "auth_header",
     "auth_header"),
    ("cookie", lambda: _in("Cookie: theme=dark; sessionid={v}; lang=en", rand(HEX, 32)),
     "session_cookie", "cookie"),
    ("set_cookie", lambda: _in("Set-Cookie: __Host-session={v}; Path=/; Secure; HttpOnly",
                               rand(URLSAFE, 40)), "session_cookie", "cookie"),
    ("prose_en", lambda: _in("my password is {v}, don't share it", rand(ALNUM, 10)),
     "password_in_prose", "password"),
    ("prose_de", lambda: _in("Das Passwort lautet {v}", "Sommer2024!"), "password_in_prose",
     "password"),
    ("prose_fr", lambda: _in("Le mot de passe : {v}", rand(ALNUM, 10)),
     "password_in_prose", "password"),
    ("prose_es", lambda: _in("contraseña: {v}", rand(ALNUM, 10)), "password_in_prose",
     "password"),
    ("prose_pt", lambda: _in("A senha é {v}", rand(ALNUM, 10)), "password_in_prose",
     "password"),
    ("prose_ru", lambda: _in("пароль: {v}", rand(ALNUM, 10)), "password_in_prose", "password"),
    ("prose_zh", lambda: _in("我的密码：{v}", rand(ALNUM, 10)), "password_in_prose", "password"),
    ("prose_qualifier", lambda: _in("password (prod): {v}", "orbit-velvet-velvet69"),
     "password_in_prose", "password"),
    ("prose_qualifier_pt", lambda: _in("senha (produção): {v}", "Mango2019&"),
     "password_in_prose", "password"),
    ("prose_gap_es", lambda: _in("nueva contraseña tras la rotación: {v}", "correct-orbit-orbit19"),
     "password_in_prose_gap", "password"),
    ("secret_gap_en", lambda: _in("rotated the client secret today, new one: {v}",
                                  rand(ALNUM + "!#%&+", 40)),
     "secret_in_prose_gap", "secret"),
    ("secret_gap_de", lambda: _in("neuer Secret nach der Rotation: {v}", rand(ALNUM + "+/", 40)),
     "secret_in_prose_gap", "secret"),
    ("secret_bracket_start", lambda: _in("client secret {v}\nref 1", "(h*&1w%+vs9=5s8#icno!sp8em"),
     "secret_in_prose_bare", "secret"),
    ("prose_ja", lambda: _in("パスワード：{v}", rand(ALNUM, 10)), "password_in_prose",
     "password"),
    ("prose_nl", lambda: _in("wachtwoord: {v}", rand(ALNUM, 10)), "password_in_prose",
     "password"),
    ("prose_wifi", lambda: _in("The wifi password for the office is {v}", rand(ALNUM, 10)),
     "password_in_prose", "password"),
    # Command-line password flags of database, directory, archive and remote-desktop tools.
    ("redis_cli_a", lambda: _in("redis-cli -h 10.0.0.7 -a '{v}' --no-auth-warning ping",
                                rand(ALNUM + "*", 12)), "cli_password", "password"),
    ("mongosh_p", lambda: _in("mongosh --host db -u admin -p {v} --eval 'db.stats()'",
                              rand(ALNUM, 14)), "cli_password", "password"),
    ("ldapsearch_w", lambda: _in("ldapsearch -x -D cn=admin,dc=corp -w {v} -b dc=corp",
                                 rand(ALNUM, 12)), "cli_password", "password"),
    ("sqlcmd_P", lambda: _in("sqlcmd -S db01 -U sa -P {v} -Q 'select 1'", rand(ALNUM, 12)),
     "cli_password", "password"),
    ("openssl_pass", lambda: _in("openssl pkcs12 -export -in a.pem -passout pass:{v} -out a.p12",
                                 rand(ALNUM, 12)), "cli_password", "password"),
    ("keytool_storepass", lambda: _in("keytool -list -keystore app.jks -storepass {v}",
                                      rand(ALNUM, 12)), "cli_password", "password"),
    ("smbclient_user_pass", lambda: _in("smbclient //fs01/share -U alice%{v}", rand(ALNUM, 12)),
     "cli_password", "password"),
    ("sevenzip_p", lambda: _in("7z a -p{v} backup.7z docs/", rand(ALNUM, 12)),
     "cli_password", "password"),
    ("xfreerdp_p", lambda: _in("xfreerdp /v:10.0.0.9 /u:admin /p:{v}", rand(ALNUM, 12)),
     "cli_password", "password"),
    # A libpq key/value DSN: a random value with a dot in it is a literal, not code.
    ("libpq_dsn_dotted", lambda: _in("host=db port=5432 user=orders password={v} dbname=orders",
                                     f"{rand(ALNUM, 18)}.{rand(string.ascii_uppercase, 3)}"),
     "password_assignment", "password"),
    # Session cookies by their frameworks' names, outside Cookie headers.
    ("phpsessid_ticket", lambda: _in("the user pasted PHPSESSID={v} in the chat",
                                     rand(string.digits + "abcdefghijklmnopqrstuv", 26)),
     "session_cookie_name", "cookie"),
    ("aspnet_session_brackets", lambda: _in("pasted in chat (ASP.NET_SessionId={v}). Revoked.",
                                            rand(string.ascii_lowercase + "012345", 24)),
     "session_cookie_name", "cookie"),
    ("jsessionid_dict", lambda: _in('client.cookies.update({{"JSESSIONID": "{v}"}})',
                                    rand(HEX, 32).upper()), "session_cookie_name", "cookie"),
    ("rails_session", lambda: _in("会话：_shop_session={v}", f"{rand(ALNUM, 40)}--{rand(HEX, 40)}"),
     "session_cookie_name", "cookie"),
    ("connect_sid", lambda: _in("req connect.sid={v} ok",
                                f"s%3A{rand(URLSAFE, 32)}.{rand(B64, 43)}"),
     "session_cookie_name", "cookie"),
    ("cookie_in_log", lambda: _in("WARN login failed ip=10.1.2.3 cookie=sessionid={v}\n",
                                  rand(string.ascii_lowercase + string.digits, 32)),
     "session_cookie", "cookie"),
    # Passwords in prose: a full stop after one, a verb a few words on, a reply, a pair.
    ("prose_trailing_stop", lambda: _in("Benutzer einkauf2, Kennwort {v} (nicht weitergeben)",
                                        "cobalt6603."), "password_in_prose_bare", "password"),
    ("prose_gap_verb", lambda: _in("The new password I set is {v} if that helps.",
                                   rand(ALNUM + "@", 16)), "password_in_prose_gap", "password"),
    ("reply_es", lambda: _in("[18:40] Ana: ¿me pasas la contraseña del panel?\n"
                             "[18:41] Luis: es {v}\n[18:41] Luis: el usuario es admin",
                             "pixel7655!"), "password_in_reply", "password"),
    ("reply_arrow_ja", lambda: _in("池田：本番DBのパスワードってどこでしたっけ？\n"
                                   "清水：急ぎなら → {v}\n", "Sommer1985#"),
     "password_in_reply", "password"),
    ("reply_dash", lambda: _in("staging ka password kya hai?\nMeena: {v} - kisi ko mat batana",
                               "ember-correct-maple35"), "password_in_reply", "password"),
    ("pair_creds", lambda: _in("it also tried the old admin creds (admin / {v}) so it is gone",
                               rand(ALNUM + "*", 16)), "user_password_pair", "password"),
    ("pair_zugangsdaten", lambda: _in("Zugangsdaten: einkauf / {v}", "harbor7038?"),
     "user_password_pair", "password"),
    ("pair_leading_star", lambda: _in("the old admin creds (admin / {v}) are gone",
                                      "*XQiBV9sqb4SsrcF"), "user_password_pair", "password"),
]  # fmt: skip


@pytest.mark.parametrize(("build", "rule", "kind"), [c[1:] for c in POSITIVE],
                         ids=[c[0] for c in POSITIVE])  # fmt: skip
def test_detects(
    redactor: Redactor, build: Callable[[], tuple[str, str]], rule: str, kind: str
) -> None:
    """Each detector finds its secret, exactly its span, and the marker replaces only that."""
    text, value = build()
    assert secret_findings(redactor, text) == [(rule, kind, value)]
    if kind == "private_key":
        with pytest.raises(BlockedError):
            redacted(redactor, text)
        return
    assert redacted(redactor, text) == text.replace(value, f"[REDACTED:{kind}]", 1)


@pytest.mark.parametrize(
    "value",
    [
        "/MyW9FIdzPVBmaIvKT1P1QdfTazKG5HhdyxNPeK1",  # base64 starts with "/" one time in 64
        "/3oS1XqtW2QlD6/5NpwZDN9HlwsOqOTPZS9gvltk",
        "PPNHQYTV/V81jBGExtqx8RSu21pf9xXxXnKGXy7Y",  # "xXxX" is no elision
    ],
)
def test_random_secrets_that_look_like_a_path_or_an_elision_are_found(
    redactor: Redactor, value: str
) -> None:
    text = f"neuer Secret nach der Rotation: {value}"
    assert secret_findings(redactor, text) == [("secret_in_prose_gap", "secret", value)]


@pytest.mark.parametrize(
    "text",
    [
        "rotated the client secret today, kept in: /etc/app/secrets/client.key",
        "new secret for the staging box, see: /home/deploy/Config2024/notes",
        "the secret, masked: sk-live-XXXX-XXXX-XXXX-XXXX",
    ],
)
def test_paths_and_elisions_after_a_secret_word_are_kept(redactor: Redactor, text: str) -> None:
    assert secret_findings(redactor, text) == []


def test_github_token_exact_output(redactor: Redactor) -> None:
    """A GitHub token in a shell export becomes a typed marker, nothing else changes."""
    text = f"export GITHUB_TOKEN={crc_token('ghp_')}"
    assert redacted(redactor, text) == "export GITHUB_TOKEN=[REDACTED:api_key]"


@pytest.mark.parametrize("prefix", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_"])
def test_token_with_a_broken_checksum_is_still_redacted(redactor: Redactor, prefix: str) -> None:
    """A token with the provider's prefix and length is one whatever its CRC32: a value
    stored with one character changed is recovered by trying the others."""
    token = crc_token(prefix)
    broken = token[:-1] + ("A" if token[-1] != "A" else "B")
    rule = "npm_token" if prefix == "npm_" else "github_token"
    assert secret_findings(redactor, f"see {broken} in the docs") == [(rule, "api_key", broken)]
    assert redacted(redactor, f"see {broken} in the docs") == "see [REDACTED:api_key] in the docs"


@pytest.mark.parametrize(
    "text",
    [
        "GITHUB_TOKEN=ghp_" + "x" * 36,
        "GITHUB_TOKEN=ghp_" + "a" * 36,
        "GITHUB_TOKEN=ghp_yourPersonalAccessTokenGoesHere00000",
        "NPM_TOKEN=npm_" + "0" * 36,
    ],
)
def test_token_shaped_placeholder_is_kept(redactor: Redactor, text: str) -> None:
    """A placeholder in a token's exact shape stays: it protects nothing."""
    assert redacted(redactor, text) == text


@pytest.mark.parametrize(
    "text",
    [
        "GOOGLE_API_KEY=AIzaSy-your-key",
        "SLACK_BOT_TOKEN=xoxb-your-bot-token",
        'slack_token: "xoxb-your-bot-token"',
        "GITHUB_TOKEN=ghp_your-token-here",
        "google_api_key: AIzaSyA-your-google-api-key-here-123456",
        "STRIPE_SECRET_KEY=sk_live_replace_me",
        "OPENAI_API_KEY=sk-<your key>",
    ],
)
def test_documentation_placeholders_are_kept(redactor: Redactor, text: str) -> None:
    """A provider's prefix and then a dummy, as documentation writes a key, is no key."""
    assert redacted(redactor, text) == text


def test_age_key_with_a_broken_checksum_is_still_a_key(redactor: Redactor) -> None:
    """An age identity in its shape is a key whatever its bech32 checksum; one letter
    repeated all through is a placeholder."""
    key = age_key()
    broken = key[:-1] + ("Q" if key[-1] != "Q" else "P")
    assert secret_findings(redactor, broken) == [("private_key", "private_key", broken)]
    assert secret_findings(redactor, "AGE-SECRET-KEY-1" + "Q" * 58) == []


def test_provider_token_outranks_assignment(redactor: Redactor) -> None:
    """Where a generic assignment and a provider rule overlap, the provider rule wins."""
    token = "sk_live_" + rand(ALNUM, 24)
    text = f'api_key = "{token}"'
    assert secret_findings(redactor, text) == [("stripe_key", "api_key", token)]
    assert redacted(redactor, text) == 'api_key = "[REDACTED:api_key]"'


def test_aws_credentials_csv(redactor: Redactor) -> None:
    """The console's credentials CSV: the key id and the unlabeled secret after it both go."""
    key_id, secret = "AKIA" + rand("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), rand(B64, 40)
    text = f"Access key ID,Secret access key\n{key_id},{secret}\n"
    assert secret_findings(redactor, text) == [
        ("aws_access_key_id", "api_key", key_id),
        ("aws_secret_near_key_id", "api_key", secret),
    ]
    assert redacted(redactor, text) == (
        "Access key ID,Secret access key\n[REDACTED:api_key],[REDACTED:api_key]\n"
    )


def test_adjacent_tokens_are_each_found(redactor: Redactor) -> None:
    """Two tokens one character apart are both found: no rule eats its neighbour's boundary."""
    pairs = [
        ("glpat-" + rand(URLSAFE, 20), "glpat-" + rand(URLSAFE, 20)),
        (f"{rand(string.digits, 10)}:AA{rand(URLSAFE, 33)}",) * 2,
        (discord_token(), discord_token()),
        (f"{rand(ALNUM, 3)}8Q~{rand(ALNUM, 34)}", f"{rand(ALNUM, 3)}8Q~{rand(ALNUM, 34)}"),
    ]
    for first, second in pairs:
        text = f"{first} {second}"
        assert [v for _, _, v in secret_findings(redactor, text)] == [first, second]
    text = f"run --password={rand(ALNUM, 12)} --token={rand(ALNUM, 24)}"
    assert (
        redacted(redactor, text) == "run --password=[REDACTED:password] --token=[REDACTED:secret]"
    )


def test_marker_is_not_a_key_name(redactor: Redactor) -> None:
    """Redacting twice changes nothing: a marker's kind is never read as a key name."""
    text = f"token {crc_token('ghp_')} :01234567"
    once = redacted(redactor, text)
    assert once == "token [REDACTED:api_key] :01234567"
    assert redacted(redactor, once) == once


def test_subscripted_key_name(redactor: Redactor) -> None:
    """A key set through a subscript (Flask's app.config["SECRET_KEY"]) is an assignment."""
    value = rand(ALNUM, 40) + "$)"
    text = f'app.config["SECRET_KEY"] = "{value}"'
    assert secret_findings(redactor, text) == [("secret_assignment_quoted", "secret", value)]


def test_env_file(redactor: Redactor) -> None:
    """A .env file with several secrets: each gets its kind; plain settings stay."""
    gh, pw, sec = crc_token("ghp_"), rand(ALNUM, 14), rand(ALNUM, 32)
    text = f"DEBUG=true\nPORT=8080\nGITHUB_TOKEN={gh}\nDB_PASSWORD={pw}\nAPP_SECRET={sec}\n"
    assert redacted(redactor, text) == (
        "DEBUG=true\nPORT=8080\nGITHUB_TOKEN=[REDACTED:api_key]\n"
        "DB_PASSWORD=[REDACTED:password]\nAPP_SECRET=[REDACTED:secret]\n"
    )


def test_json_document(redactor: Redactor) -> None:
    """Tokens embedded in JSON keep the quotes and the structure around them."""
    key, slack = (
        "AKIA" + rand("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
        (f"xoxb-{rand(string.digits, 12)}-{rand(string.digits, 13)}-{rand(ALNUM, 24)}"),
    )
    text = json.dumps({"aws": {"key_id": key}, "slack": slack, "region": "eu-west-1"})
    assert json.loads(redacted(redactor, text)) == {
        "aws": {"key_id": "[REDACTED:api_key]"},
        "slack": "[REDACTED:api_key]",
        "region": "eu-west-1",
    }


def test_shell_history_and_log(redactor: Redactor) -> None:
    """Shell history and a log line: the secrets go, the commands and timestamps stay."""
    pw, bearer = rand(ALNUM, 12), rand(ALNUM, 40)
    text = (
        f"  501  psql postgresql://app:{pw}@10.0.0.5/app\n"
        f"2024-05-01T12:00:00Z INFO request id=42 headers={{'Authorization': 'Bearer {bearer}'}}\n"
    )
    assert redacted(redactor, text) == (
        "  501  psql postgresql://app:[REDACTED:credential]@10.0.0.5/app\n"
        "2024-05-01T12:00:00Z INFO request id=42 "
        "headers={'Authorization': 'Bearer [REDACTED:auth_header]'}\n"
    )


@pytest.mark.parametrize(
    "label",
    ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY",
     "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK"],
)  # fmt: skip
def test_pem_private_key_found(redactor: Redactor, label: str) -> None:
    """Multi-line PEM and OpenSSH private keys are found whole, header to footer."""
    key = pem(label)
    text = f"Here is the deploy key:\n{key}\nThanks."
    assert secret_findings(redactor, text) == [("private_key", "private_key", key)]


def test_encrypted_pem_with_headers(redactor: Redactor) -> None:
    """A legacy encrypted PEM key with Proc-Type and DEK-Info headers is found whole."""
    body = "\n".join(rand(B64, 64) for _ in range(3))
    key = (
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
        f"DEK-Info: AES-128-CBC,{rand(HEX, 32).upper()}\n\n{body}\n-----END RSA PRIVATE KEY-----"
    )
    assert secret_findings(redactor, key) == [("private_key", "private_key", key)]


def test_truncated_pem_private_key_found(redactor: Redactor) -> None:
    """A private key cut off before its footer is still a private key."""
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(rand(B64, 70) for _ in range(3))
    assert [f[0] for f in secret_findings(redactor, text)] == ["private_key"]


def test_putty_private_key_found(redactor: Redactor) -> None:
    """A PuTTY .ppk file is found from its first line to its MAC."""
    key = (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: me\n"
        f"Public-Lines: 2\n{rand(B64, 64)}\n{rand(B64, 4)}\nPrivate-Lines: 1\n{rand(B64, 44)}\n"
        f"Private-MAC: {rand(HEX, 64)}"
    )
    assert secret_findings(redactor, key) == [("private_key", "private_key", key)]


def test_service_account_json_found(redactor: Redactor) -> None:
    """A GCP service-account file's JSON-escaped private_key is a private key."""
    key = pem(newline="\\n")
    text = (
        '{"type": "service_account", "project_id": "p", "private_key_id": "'
        + rand(HEX, 40)
        + f'", "private_key": "{key}\\n", "client_email": "sa@p.iam.gserviceaccount.com"}}'
    )
    findings = secret_findings(redactor, text)
    assert ("private_key", "private_key", key) in findings


def test_private_key_blocks_the_write(redactor: Redactor) -> None:
    """The default policy refuses a write that contains a private key."""
    with pytest.raises(BlockedError):
        redactor.apply(f"key:\n{pem()}\n", lambda k, v: "0123456789")
    with pytest.raises(BlockedError):
        redactor.apply(age_key(), lambda k, v: "0123456789")


NEGATIVE = [
    "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it",
    "request 123e4567-e89b-12d3-a456-426614174000 failed",
    "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "md5 d41d8cd98f00b204e9800998ecf8427e",
    "version 1.2.3-rc.4+build.567, released 2024-05-01T12:34:56Z",
    "order #A-10023-77 and ticket JIRA-4521",
    "api_key = YOUR_API_KEY",
    "Authorization: Bearer <token>",
    "OPENAI_API_KEY=sk-...xxxx",
    "token: xxxxxxxxxxxxxxxxxxxxxxxx",
    "password: ********",
    "password = changeme",
    "password reset link: https://id.example.com/reset?step=2",
    "the password policy changed in v2: see the wiki",
    "secret santa list for 2024: see the shared doc",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "stripe.api_key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'",
    "Stripe.setPublishableKey('pk_live_51HxYzAbCdEfGhIjKlMnOpQr')",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"
    + "A" * 40
    + "\n-----END PUBLIC KEY-----",
    "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    "see https://docs.example.org/path?query=1#frag and postgres://db.internal:5432/app",
    "postgres://user:password@localhost:5432/app",
    "mysql://root:${MYSQL_ROOT_PASSWORD}@db/app",
    "password = ${DB_PASSWORD}",
    'password = os.environ["DB_PASSWORD"]',
    "token = os.getenv('GITHUB_TOKEN')",
    "password=password",
    "self.password = args.password",
    "password: [REDACTED:password]",
    "api_key: [REDACTED:api_key]",
    'headers = {"Authorization": f"Bearer {token}"}',
    'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com',
    "The password is incorrect, please try again.",
    "Reset your password: open Settings",
    "Twilio account AC" + "0123456789abcdef" * 2 + " sent the message",
    "the -----BEGIN PRIVATE KEY----- line starts a PKCS#8 file",
    "token_type: bearer, expires_in: 3600",
    "next_step: run `make test`, secret sauce: patience",
    "Cookie: theme=dark; lang=en-GB",
    "pass: true",
    # References into a secret manager, resolved at deploy time.
    "SMTP_PASSWORD=vault:secret/data/billing#api_key",
    "DB_PASSWORD=op://Engineering/postgres/password",
    "password: ref+vault://secret/app#/db",
    "db_password = projects/acme/secrets/db-password/versions/3",
    "password: arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbC123",
    "password: ${{ secrets.DB_PASSWORD }}",
    # Code: attribute paths and calls whose names are words.
    "password=config.dbPassword",
    "password = get_password(user.name)",
    # Flags that are not passwords: ports, the unzip pipe flag, tools without one.
    "psql -h db -p 5432 -U app",
    "ssh -p 2222 admin@bastion",
    "unzip -p archive.zip notes.txt",
    "redis-cli -h cache --scan --pattern 'user:*'",
    # Cookie settings and JSON keys near the word cookie.
    'SESSION_COOKIE_NAME = "sessionid"',
    "PHPSESSID=<session id>",
    "JSESSIONID=${JSESSIONID}",
    "_db_session=sessionmaker(bind=engine)",
    '{"cookie_policy": "strict", "ssh_authorized_key": "ssh-ed25519 '
    + "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
    + '"}',
    # Questions about passwords and their answers that are no password.
    "Where do I reset my password?\nBob: Settings - Security",
    "what is the password policy?\nBob: 12 chars",
    "Passwort vergessen? Bitte den Link nutzen.",
    "the password you entered is incorrect.",
    # Slashes after credential words that are no user / password pair.
    "login flows (v2 / v3) are documented",
    "credentials: see vault / ask ops",
    "logins per day: 1200 / 1500",
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_are_kept(redactor: Redactor, text: str) -> None:
    """Hashes, ids, placeholders, examples, public keys and references are not secrets."""
    assert secret_findings(redactor, text) == []
    assert redacted(redactor, text) == text


def test_random_look_alikes_are_kept(redactor: Redactor) -> None:
    """Freshly random git SHAs, UUIDs and digests in a note are left alone."""
    text = (
        f"merged {secrets.token_hex(20)} into main; trace {secrets.token_hex(16)}; "
        f"digest sha256:{secrets.token_hex(32)}; id {rand(HEX, 8)}-{rand(HEX, 4)}-4{rand(HEX, 3)}"
        f"-a{rand(HEX, 3)}-{rand(HEX, 12)}"
    )
    assert secret_findings(redactor, text) == []


def test_every_secret_rule_compiles_in_re2() -> None:
    """Every secret rule is valid RE2 on its own, with lower-case keywords."""
    options = re2.Options()
    options.log_errors = False
    for rule in RULES:
        re2.compile(rule.pattern, options)
        assert rule.category == "secret"
        assert all(k == k.lower() and k for k in rule.keywords), rule.name


def test_every_rule_is_cheap_to_skip() -> None:
    """Every rule has keywords or starts with a literal, so a plain note costs one set pass."""
    bare = {r.name for r in RULES if not r.keywords}
    assert bare <= {
        "discord_bot_token",
        "telegram_bot_token",
        "twilio_api_key",
        "aws_access_key_id",
    }


def cue_texts() -> list[str]:
    """Corpus, holdout and fresh notes, and every kind's needles in the words around them."""
    texts = [str(s["text"]) for s in generate.build() + generate.build_holdout()]
    texts += [str(s["text"]) for s in generate.build_fresh()]
    needles = [generate.needle(kind, seed)[0] for kind in generate.KINDS for seed in range(60)]
    return texts + needles + [f"see {n}." for n in needles] + ["\n".join(needles)]


def test_cues_occur_in_every_match() -> None:
    """A rule's cue matches inside each of its pattern's matches, so gating on it loses nothing."""
    options = re2.Options()
    options.log_errors = False
    cued = [
        (r, re2.compile(r.pattern, options), re2.compile(r.cue, options)) for r in RULES if r.cue
    ]
    assert cued
    texts = cue_texts()
    seen = 0
    for rule, pattern, cue in cued:
        for text in texts:
            for match in pattern.finditer(text):
                seen += 1
                assert cue.search(text, match.start(), match.end()), (rule.name, match.span())
    assert seen > 1000


def test_adversarial_megabyte(redactor: Redactor) -> None:
    """A 1 MB run of near-matches for every rule is scanned, and a real token after it found."""
    runs = [
        "ghp_" + "a" * 35 + " ",
        "github_pat_" + "A" * 80 + " ",
        "-----BEGIN PRIVATE KEY-----\n" + "A" * 39 + " ",
        "-----BEGIN RSA PRIVATE KEY-----",
        "PuTTY-User-Key-File-3: x\n",
        "AGE-SECRET-KEY-1" + "Q" * 57 + " ",
        "password=",
        "password: ",
        "passwort: ",
        "secret_token=",
        "xoxb-",
        "xoxb-1-",
        "eyJ",
        "eyJhbGciOi." * 3,
        "postgres://u:",
        "mysql://a:b",
        "jdbc:mysql://h?password",
        "Authorization: Bearer ",
        "Cookie: session=",
        "sig=" + "A" * 42,
        "AKIA" + "A" * 15 + " ",
        "sk-ant-api03-",
        "sk-proj-",
        "sk-" + "a" * 20 + "T3BlbkFJ",
        "AIza" + "a" * 34 + " ",
        "12345678:A" + "a" * 33 + " ",
        "MTIz" + "a" * 20 + "." + "b" * 6 + ".",
        "SG." + "a" * 22 + ".",
        "hvs.",
        "x" * 14 + ".atlasv1.",
        "https://hooks.slack.com/services/T",
        "machine h login u password",
        "curl -u a:",
        "mysql -p",
        "aws_secret_access_key=" + "A" * 39 + " ",
        "aws " + "Ab1/" * 9 + "Ab1 ",
        "IQoJb3JpZ2lu" + "A" * 99 + " ",
        "AccountKey=",
        "abc8Q~" + "a" * 30 + " ",
        "我的密码：",
        "redis-cli -a",
        "ldapsearch -w ",
        "password?\n",
        "password?\nBob: ",
        "creds (admin / ",
        "PHPSESSID=",
        '{"_app_session": "',
        "cookie=sessionid=",
    ]
    parts, size = [], 0
    while size < 1 << 20:
        for run in runs:
            chunk = run * 50
            parts.append(chunk)
            size += len(chunk)
    token = crc_token("ghp_")
    text = "".join(parts) + f"\nexport GITHUB_TOKEN={token}\n"
    findings = redactor.scan(text)
    assert any(text[f.start : f.end] == token for f in findings)
    for run in runs:
        redactor.scan(run * ((1 << 16) // len(run)))


# --- How real configs, chats and tools carry credentials (blind2 gaps) ---


def _basic(user: str = "grafana") -> str:
    return base64.b64encode(f"{user}:{rand(ALNUM, 12)}!".encode()).decode()


HELD_OUT: list[tuple[str, Callable[[], tuple[str, str]], str]] = [
    ("airtable_pat", lambda: _in("token: {v}", "pat" + rand(ALNUM, 14) + "." + rand(HEX, 64)),
     "api_key"),
    ("toml_spanish_key", lambda: _in('contrasena_bd    = "{v}"', "Gtkw41@" + rand(ALNUM, 6)),
     "password"),
    ("ini_german_key", lambda: _in('kennwort = "{v}"', "Ab1!" + rand(ALNUM, 8)), "password"),
    ("teams_reply_after_header", lambda: _in(
        "Kannst du mir das Passwort schicken? Das im Wiki ist alt.\n"
        "[Gestern 16:07] IT-Servicedesk\nklar: {v} – bitte nicht weiterleiten",
        "Bb7-" + rand(ALNUM, 8)),
     "password"),
    ("french_adjective", lambda: _in("VPN (mot de passe provisoire {v})", "Fd04?" + rand(ALNUM, 7)),
     "password"),
    ("italian_changed_now", lambda: _in(
        "la password della VPN è cambiata, ora è {v}\n", "Ss33&" + rand(ALNUM, 7)), "password"),
    ("postman_variable",
     lambda: _in('{{"key": "adminPass", "value": "{v}"}}', "Nk21%" + rand(ALNUM, 7)),
     "password"),
    ("postman_apikey_auth", lambda: _in(
        '"auth": {{"type": "apikey", "apikey": [{{"key": "value", "value": "{v}", '
        '"type": "string"}}]}}', rand(ALNUM, 40)), "auth_header"),
    ("basic_in_prose", lambda: _in("the basic auth for kibana is Basic {v} — keep it", _basic()),
     "auth_header"),
    ("key_for_in_backticks", lambda: _in(
        "here's the read-only grafana key for the dashboard embed: `{v}`", rand(HEX, 32)),
     "api_key"),
    ("appsettings_jwt_key", lambda: _in(
        '"Jwt": {{ "Issuer": "https://login.acme.io", "Key": "{v}" }}', rand(B64, 44)), "secret"),
    ("kubectl_base64_decoded", lambda: _in(
        "$ kubectl get secret db -o jsonpath='{{.data.password}}' | base64 -d\n{v}\n$ ls",
        "Summer2020!" + rand(ALNUM, 3)), "password"),
]  # fmt: skip


@pytest.mark.parametrize(("build", "kind"), [c[1:] for c in HELD_OUT], ids=[c[0] for c in HELD_OUT])
def test_detects_held_out_shapes(
    redactor: Redactor, build: Callable[[], tuple[str, str]], kind: str
) -> None:
    """Credentials in foreign key names, chat replies, Postman, prose Basic and kubectl output."""
    text, value = build()
    hits = [(k, found) for _, k, found in secret_findings(redactor, text)]
    assert any(value in found for _, found in hits), (text, hits)
    assert any(k == kind and value in found for k, found in hits), (text, hits)


@pytest.mark.parametrize(
    "text",
    [
        "the pattern is pat12345678901234.notreally",  # no 64 hex after the dot
        "basic auth is Basic dGhpcyBpcyBub3QgYSBwYWly",  # base64 without a colon inside
        "we use Basic authentication everywhere",
        '{"key": "bypassCache", "value": "true"}',
        '{"key": "adminPass", "value": "{{ADMIN_PASS}}"}',
        '"Logging": { "Key": "Microsoft.AspNetCore" }',
        "the key for the door: `front`",
        "password?\n[12/3/25, 18:41] Ana: es",
        "We reset your password is: Ab?cd12\nPlease change it. Reference: CASE-70167681.",
        "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\n${DB_PASSWORD}\n",
    ],
)
def test_held_out_look_alikes_kept(redactor: Redactor, text: str) -> None:
    """Words after 'Basic', placeholders and ticket numbers near a password stay."""
    assert "CASE-70167681" not in "".join(f for _, _, f in secret_findings(redactor, text))
    if "CASE-" not in text and "Ab?cd12" not in text:
        assert secret_findings(redactor, text) == []


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("- كلمة المرور لحساب root: Sahara#846\n", "password", "Sahara#846"),
        ("user ubuntu, mật khẩu halong42Saigon$\n", "password", "halong42Saigon$"),
        ("kullanıcı deploy, şifre Karadeniz#718\n", "password", "Karadeniz#718"),
        (
            '"headers": [{"name": "x-api-key", "value": '
            '"3jsFiO0uUjcfF82g9c13RUJ9viKD8tPWm9wYDrKb"}]',
            "auth_header",
            "3jsFiO0uUjcfF82g9c13RUJ9viKD8tPWm9wYDrKb",
        ),
        (
            '"cookies": [{"name": "sid", "value": "4biqv0iwy2a5d4f9dm8qgt478osy83fc"}]',
            "cookie",
            "4biqv0iwy2a5d4f9dm8qgt478osy83fc",
        ),
        (
            "- 세션 쿠키 유출 의심: SESSION=EE535E5DEDDB88E1712D9E04D94DBE71\n",
            "cookie",
            "EE535E5DEDDB88E1712D9E04D94DBE71",
        ),
        (
            "jwtSigningKey: haGj368LHGOVm2kUloKSeWeJAzHNuFK3wPVVZcbr\n",
            "secret",
            "haGj368LHGOVm2kUloKSeWeJAzHNuFK3wPVVZcbr",
        ),
        (
            '{"key": "webhookSecret", "value": "4212bc1a97020cecb862520df6d492c2a9013791", '
            '"type": "secret"}',
            "secret",
            "4212bc1a97020cecb862520df6d492c2a9013791",
        ),
    ],
)
def test_blind3_secret_shapes(redactor: Redactor, text: str, kind: str, value: str) -> None:
    """Password labels in Arabic, Vietnamese and Turkish, HAR and Postman pairs, Helm keys."""
    assert (kind, value) in [(k, f) for _, k, f in secret_findings(redactor, text)]


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "sidebar", "value": "collapsed"}',
        '{"key": "webhookSecret", "value": "{{WEBHOOK_SECRET}}"}',
        '"headers": [{"name": "x-api-key", "value": "<your-key>"}]',
    ],
)
def test_blind3_pairs_look_alikes_kept(redactor: Redactor, text: str) -> None:
    """Plain HAR values and Postman placeholders stay."""
    assert secret_findings(redactor, text) == []


# --- XML password elements, WordPress cookies, MAC keys, secrets in backticks ---

_WSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0"


def _soap(password_type: str, value: str) -> str:
    return (
        "<soapenv:Header><wsse:Security><wsse:UsernameToken><wsse:Username>b2b_gateway"
        f'</wsse:Username><wsse:Password Type="{_WSSE}#{password_type}">{value}'
        f'</wsse:Password><wsse:Nonce EncodingType="{_WSSE}#Base64Binary">'
        f"{rand(B64, 22)}==</wsse:Nonce><wsu:Created>2024-05-01T10:00:00Z</wsu:Created>"
        "</wsse:UsernameToken></wsse:Security></soapenv:Header>"
    )


def _wp_cookie(name: str) -> tuple[str, str]:
    value = f"admin%7C17{rand('0123456789', 8)}%7C{rand(ALNUM, 43)}%7C{rand(HEX, 64)}"
    return f"{name}{rand(HEX, 32)}={value}", value


CREDENTIAL_CASES: list[Case] = [
    ("wsse_password_text", lambda: _in(_soap("PasswordText", "{v}"),
                                       rand(ALNUM, 10) + "%7"), "xml_password_element",
     "password"),
    ("wsse_password_digest", lambda: _in(_soap("PasswordDigest", "{v}"), rand(B64, 26) + "="),
     "xml_password_element", "password"),
    ("maven_settings_password", lambda: _in(
        "<server><id>nexus</id><username>deploy</username>\n  <password>{v}</password>\n</server>",
        rand(ALNUM, 14) + "!"), "xml_password_element", "password"),
    ("wordpress_logged_in_header", lambda: _in("Cookie: {v}; wp-settings-time-1=1721242923",
                                               _wp_cookie("wordpress_logged_in_")[0]),
     "wordpress_auth_cookie", "cookie"),
    ("wordpress_sec_json", lambda: _in('{{"headers": {{"cookie": "{v}"}}}}',
                                      _wp_cookie("wordpress_sec_")[0]),
     "wordpress_auth_cookie", "cookie"),
    ("session_signing_env", lambda: _in("SESSION_SIGNING={v}\n", rand(HEX, 64)),
     "mac_key_assignment", "secret"),
    ("cookie_hmac_env", lambda: _in("COOKIE_HMAC={v}\n", rand(B64, 40)),
     "mac_key_assignment", "secret"),
    ("app_salt_yaml", lambda: _in("app:\n  password_salt: {v}\n", rand(ALNUM + "#$*(", 40)),
     "mac_key_assignment", "secret"),
    ("webhook_secret_arrow", lambda: _in("- [x] rotate Stripe webhook secret → `{v}`\n",
                                         rand(B64, 40)), "secret_in_backticks", "secret"),
    ("signing_key_is_backticks", lambda: _in("the signing key is `{v}` until Friday",
                                             rand(URLSAFE, 43)), "secret_in_backticks",
     "secret"),
]  # fmt: skip


def _cookie_value(text: str) -> str:
    return text.split("=", 1)[1]


@pytest.mark.parametrize(("build", "rule", "kind"), [c[1:] for c in CREDENTIAL_CASES],
                         ids=[c[0] for c in CREDENTIAL_CASES])  # fmt: skip
def test_detects_markup_cookies_and_keys(
    redactor: Redactor, build: Callable[[], tuple[str, str]], rule: str, kind: str
) -> None:
    """Each rule finds exactly the value: the password element's text, the cookie's value
    after its name, the key after its name, the secret inside the backticks."""
    text, value = build()
    if rule == "wordpress_auth_cookie":
        value = _cookie_value(value)
    assert secret_findings(redactor, text) == [(rule, kind, value)]


def test_har_bearer_token_ending_in_a_full_stop(redactor: Redactor) -> None:
    """In a HAR header the closing quote ends the token, so a full stop before it is kept
    with it; in prose after 'Bearer' it still ends the sentence."""
    token = rand(URLSAFE, 46) + "."
    har = f'"headers": [{{"name": "Authorization", "value": "Bearer {token}"}}]'
    assert secret_findings(redactor, har) == [("har_header_pair", "auth_header", token)]
    prose = f"call it with Bearer {token} then"
    assert secret_findings(redactor, prose) == [("auth_header", "auth_header", token[:-1])]


@pytest.mark.parametrize(
    "text",
    [
        # a nonce and a creation time are not secrets; the password element is a template
        f'<wsse:Nonce EncodingType="{_WSSE}#Base64Binary">c2VjcmV0bm9uY2UxMjM0NQ==</wsse:Nonce>',
        "<password>${env.NEXUS_PASSWORD}</password>",
        "<PasswordPolicy>strict</PasswordPolicy><RequirePassword>true</RequirePassword>",
        "<bypass>a1b2c3d4e5</bypass>",
        # WordPress preferences and its test cookie
        "Cookie: wp-settings-1=libraryContent%3Dbrowse%26editor%3Dtinymce; "
        "wp-settings-time-1=1721242923; wordpress_test_cookie=WP%20Cookie%20check",
        # low-entropy settings and rounds under MAC-ish names, per-record salts in data
        "BCRYPT_SALT=12\nJWT_SIGNING=RS256\nREQUIRE_SIGNING=true\nPASSWORD_HMAC=sha256\n",
        '{"hash": "9f86d081884c7d659a2feaa0c55ad015", "salt": "a1b2c3d4e5f6a7b8"}',
        # backticks after a label that names a place, a variable or a public key
        "- the secret is in `config/credentials.yml.enc`",
        "- secret name → `STRIPE_WEBHOOK_SECRET`",
        "- deploy key → `AAAAC3NzaC1lZDI1NTE5AAAAIGq3vZ8mT1Kx0rRtYpWq`",
        "- cache key → `build-cache-v2-3f9a81c0e77d`",
        "- signing key → `settings.JWT_SIGNING_KEY`",
        # a secret manager's ARN names a secret, it is not one
        "OAUTH_TOKEN=arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
    ],
)
def test_markup_cookie_and_key_look_alikes_kept(redactor: Redactor, text: str) -> None:
    """Nonces, templates, preference cookies, settings, paths, names and references stay."""
    assert secret_findings(redactor, text) == []


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _pem_b64(label: str) -> str:
    body = "\n".join(rand(B64, 64) for _ in range(3))
    return _b64(f"-----BEGIN {label}-----\n{body}\n-----END {label}-----\n".encode())


ENCODED_CASES: list[Case] = [
    ("kubeconfig_client_key", lambda: _in("  user:\n    client-key-data: {v}\n",
                                          _pem_b64("RSA PRIVATE KEY")),
     "private_key_base64", "private_key"),
    ("smtp_auth_plain", lambda: _in(" -> EHLO laptop\n -> AUTH PLAIN {v}\n<-  235 2.7.0 ok",
                                    _b64(b"\0ops@example.net\0" + rand(ALNUM, 14).encode())),
     "sasl_plain", "auth_header"),
    ("aspnet_machine_key", lambda: _in('<machineKey validationKey="{v}" '
                                       'decryptionKey="AutoGenerate,IsolateApps" />',
                                       rand("0123456789ABCDEF", 128)),
     "aspnet_machine_key", "secret"),
    ("powershell_securestring", lambda: _in(
        '$sec = ConvertTo-SecureString "{v}" -AsPlainText -Force',
        rand(ALNUM, 12) + "%$"), "powershell_securestring", "password"),
]  # fmt: skip


@pytest.mark.parametrize(("build", "rule", "kind"), [c[1:] for c in ENCODED_CASES],
                         ids=[c[0] for c in ENCODED_CASES])  # fmt: skip
def test_detects_encoded_and_framework_secrets(
    redactor: Redactor, build: Callable[[], tuple[str, str]], rule: str, kind: str
) -> None:
    """Base64 PEM keys, SASL PLAIN responses, machine keys and SecureString literals."""
    text, value = build()
    assert secret_findings(redactor, text) == [(rule, kind, value)]


@pytest.mark.parametrize(
    "text",
    [
        # a certificate in base64 is public; SASL PLAIN of one field is not a credential
        "    client-certificate-data: " + _pem_b64("CERTIFICATE"),
        " -> AUTH PLAIN " + _b64(b"just-a-user-name-here"),
        '<machineKey validationKey="AutoGenerate,IsolateApps" validation="HMACSHA256" />',
        "$sec = ConvertTo-SecureString $env:DEPLOY_PASSWORD -AsPlainText -Force",
        # numbers beside a Secret's data, and deploy-time template tokens
        'kind: Secret\nmetadata:\n  name: checkout-env\n  resourceVersion: "123669235"\n',
        "app:\n  admin-password: @@SECRET@@\n  db-password: #{DbPassword}#\n",
    ],
)
def test_encoded_and_framework_look_alikes_kept(redactor: Redactor, text: str) -> None:
    """Certificates, one-field SASL strings, generated keys, variables, numbers, templates."""
    assert secret_findings(redactor, text) == []


@pytest.mark.parametrize(
    "template",
    [
        '"text": "temp creds for the sandbox, rotate after: `{v}` (build 4a55b0ab)"',
        "credentials for staging: `{v}`",
    ],
)
def test_password_in_backticks(redactor: Redactor, template: str) -> None:
    """A password in backticks a few words after 'creds' and a colon is found, exactly."""
    value = rand(ALNUM, 12) + "^~" + rand("0123456789", 2)
    text = template.format(v=value)
    assert secret_findings(redactor, text) == [("password_in_backticks", "password", value)]


@pytest.mark.parametrize(
    "text",
    ["creds are in: `vault-prod`", "creds rotated, see: `INC-20417`", "creds: `STAGING_DB`"],
)
def test_password_in_backticks_look_alikes_kept(redactor: Redactor, text: str) -> None:
    """Names, ticket keys and variables in backticks after 'creds' stay."""
    assert secret_findings(redactor, text) == []


@pytest.mark.parametrize(
    "text",
    [
        "db:\n  password: *db_password\n",
        "defaults: &defaults\n  token: *defaultSettings\n",
        "password: *node1_secret",
    ],
)
def test_yaml_aliases_are_names_not_secrets(redactor: Redactor, text: str) -> None:
    """A YAML alias or anchor names a value written elsewhere; a password that starts with
    ``*`` or ``&`` but mixes case at random is a password (see pair_leading_star)."""
    assert secret_findings(redactor, text) == []


@pytest.mark.parametrize(
    "value", ["Ss33&0sn53nS", "Ss33&53IYB33", "Ss33&ss3DDSJ", "Ss33&3xyWSgS", "Ss33&l63j83l"]
)
def test_a_password_of_every_class_with_repeats_is_found_in_prose(
    redactor: Redactor, value: str
) -> None:
    """Upper and lower case, a digit and a symbol, but repeats pulling its measured variety
    under 2.8 bits a character: still a password after the word (these came from a random
    held-out run that missed them)."""
    for text in (f"la password della VPN è cambiata, ora è {value}\n", f"Passwort {value}"):
        assert [(kind, found) for _, kind, found in secret_findings(redactor, text)] == [
            ("password", value)
        ], text


@pytest.mark.parametrize("value", ["Mississippi1!", "aaaa1111!", "hello12hello!", "kiwi-kiwi-42"])
def test_too_little_variety_stays_unflagged_after_a_password_gap(
    redactor: Redactor, value: str
) -> None:
    """The lower floor is for values of every class only (``hello12hello!`` measures 2.62
    bits a character but has no upper case), and still a floor."""
    text = f"la password della VPN è cambiata, ora è {value}\n"
    assert [found for _, _, found in secret_findings(redactor, text)] == []
