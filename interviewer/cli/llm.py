"""``interviewer llm``: set up and check the OpenAI-compatible endpoint used by LLM mode."""

from __future__ import annotations

import typer

from interviewer.cli.base import fail, print_json
from interviewer.cli.help import Typer

llm_app = Typer(
    help=(
        "LLM mode: an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio) plays the "
        "interviewer. The key comes from OPENAI_API_KEY (or llm_api_key in the config), the URL from --base-url, "
        "OPENAI_BASE_URL or llm_base_url."
    ),
    no_args_is_help=True,
)

ENDPOINT_FAILED = 1
"""Exit code when the endpoint does not give a usable reply (2 stays for usage and config errors)."""


@llm_app.command("check")
def check(
    ctx: typer.Context,
    base_url: str | None = typer.Option(
        None, "--base-url", metavar="URL", help="Endpoint, e.g. http://localhost:11434/v1 (Ollama) or http://localhost:8000/v1 (vLLM)."
    ),
    llm: str | None = typer.Option(None, "--llm", metavar="MODEL", help="Model name, e.g. gpt-4o-mini or llama3.1:8b."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Send the interview's real first-turn request (full prompt, tools, streaming); exit 0 when a complete
    reply comes back, else say what is wrong and how to fix it."""
    from interviewer.config import ConfigError, load_settings
    from interviewer.llm.check import check_endpoint
    from interviewer.llm.client import NoModelConfigured, endpoint_url, require_model

    root = ctx.find_root().obj or {}  # `interviewer --llm M --base-url U llm check` works too
    try:
        settings = load_settings(llm_model=llm or root.get("llm"), llm_base_url=base_url or root.get("base_url"))
        require_model(settings)
    except (ConfigError, NoModelConfigured) as exc:
        fail(str(exc))
    result = check_endpoint(settings)
    if as_json:
        print_json(result.as_dict())
        if not result.ok:
            raise typer.Exit(ENDPOINT_FAILED)
        return
    if not result.ok:
        fail(result.problem, ENDPOINT_FAILED)
    reply = result.reply if len(result.reply) <= 80 else result.reply[:79] + "…"
    typer.echo(f"ok: model '{result.model}' at {endpoint_url(settings)} replied in {result.seconds:.2f} s: {reply!r}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``interviewer`` app (called by ``interviewer.cli``)."""
    app.add_typer(llm_app, name="llm")
