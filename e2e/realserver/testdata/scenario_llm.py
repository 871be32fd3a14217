"""scenario_llm.py: the scripted LLM of ohwatch's real-server suite.

The agent-server kit's fakellm.py, plus one directive for the long run:
LONG=N makes the agent call task_tracker N times with a HIGH security risk
and a plan of 40 long tasks (each observation is several KiB), then finish.
Every other message is answered as fakellm.py answers it.
Started with FAKELLM_FILE=this file (serve_real.py loads it by path).
"""
import importlib.util
import json
import os
import re
import uuid

import sdkenv  # already imported by serve_real.py: it locates the kit

_spec = importlib.util.spec_from_file_location(
    "kit_fakellm", os.path.join(os.path.dirname(sdkenv.__file__), "fakellm.py"))
kit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kit)

from openhands.sdk.llm import LLM  # noqa: E402
from openhands.sdk.llm.llm_response import LLMResponse  # noqa: E402
from openhands.sdk.llm.message import Message, MessageToolCall, TextContent  # noqa: E402


def _long_steps(messages):
    steps = None
    for m in messages:
        if getattr(m, "role", None) != "user":
            continue
        for c in getattr(m, "content", []) or []:
            for v in re.findall(r"\bLONG=(\d+)", str(getattr(c, "text", ""))):
                steps = int(v)
    return steps


def _fake(self, messages, tools=None, **kwargs):
    names = [t.name for t in (tools or [])]
    steps = _long_steps(messages)
    if steps is None or "task_tracker" not in names:
        return kit._fake(self, messages, tools, **kwargs)
    n_assistant = sum(1 for m in messages if getattr(m, "role", None) == "assistant")
    if n_assistant < steps:
        tool, args = "task_tracker", {
            "command": "plan", "security_risk": "HIGH",
            "summary": "risky plan %d" % (n_assistant + 1),
            "task_list": [{"title": "Step %d task %d: %s" % (n_assistant + 1, i, "x" * 120),
                           "notes": "n" * 200, "status": "todo"} for i in range(40)]}
        text = "Planning, step %d." % (n_assistant + 1)
    else:
        tool, args = "finish", {"message": "Long run done after %d risky steps." % steps,
                                "summary": "finish the long run"}
        text = "All done."
    rid = "scn-" + uuid.uuid4().hex[:12]
    self.metrics.add_token_usage(prompt_tokens=2000, completion_tokens=80, cache_read_tokens=0,
                                 cache_write_tokens=0, context_window=128000, response_id=rid,
                                 reasoning_tokens=0)
    self.metrics.add_cost(0.002)
    msg = Message(role="assistant", content=[TextContent(text=text)],
                  tool_calls=[MessageToolCall(id="call_" + uuid.uuid4().hex[:10], name=tool,
                                              arguments=json.dumps(args), origin="completion")])
    return LLMResponse(message=msg, metrics=self.metrics.get_snapshot(), raw_response=kit._Raw(rid))


async def _afake(self, messages, tools=None, **kwargs):
    import asyncio
    return await asyncio.get_running_loop().run_in_executor(
        None, lambda: _fake(self, messages, tools, **kwargs))


def install():
    kit.install()
    LLM.completion = _fake
    LLM.responses = _fake
    if hasattr(LLM, "acompletion"):
        LLM.acompletion = _afake
    if hasattr(LLM, "aresponses"):
        LLM.aresponses = _afake
