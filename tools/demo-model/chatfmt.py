"""ChatML prompt assembly, exactly as seer renders it for the demo model: the
image marker sits at the start of the user turn that carries the image, and
the image's embedding rows replace it (no tokens around them, LLaVA-1.5 style).
"""
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
MARKER = "<__media__>"
SYSTEM_PROMPT = "You are a helpful assistant."


def render(messages, add_generation_prompt=True):
    s = ""
    for role, content in messages:
        s += "<|im_start|>" + role + "\n" + content + "<|im_end|>\n"
    if add_generation_prompt:
        s += "<|im_start|>assistant\n"
    return s


def tokenize_with_image(tok, text):
    """Splits at the marker, tokenizes each piece separately (special tokens
    parsed, no BOS). Returns (ids, index where the image rows go or -1)."""
    parts = text.split(MARKER)
    assert len(parts) <= 2, "one image per prompt"
    ids = tok.encode(parts[0])
    if len(parts) == 1:
        return ids, -1
    return ids + tok.encode(parts[1]), len(ids)
