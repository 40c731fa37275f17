-- Trace contexts of messages (trace hash trace{<prefix><topic>_<slot>}: member -> entry), written only for
-- messages sent with one (see docs/tracing.md). An entry is "<sends> <attempt> <context> <context> ...":
--   sends     how many traced sends the message stands for (merged sends included)
--   attempt   the W3C traceparent of its last failed delivery's process span, '-' for none
--   context   the W3C traceparents of its first sends, at most the bound the writer gives
-- Entries never hold spaces in their parts: a traceparent is "00-<trace id>-<span id>-<flags>".

-- The entry of a message that stands for both entries' sends: the counts added, the contexts of `old` then
-- `new` up to `maxLinks`, the attempt of `new` (or of `old` when `new` has none). An entry that is not in
-- this form (written by hand) counts as none.
local function mergeTrace(old, new, maxLinks)
  local newSends, newAttempt, newLinks = string.match(new or '', '^(%d+) (%S+) ?(.*)$')
  local oldSends, oldAttempt, oldLinks = string.match(old or '', '^(%d+) (%S+) ?(.*)$')
  if not newSends then
    if oldSends then return old end
    return nil
  end
  if not oldSends then oldSends, oldAttempt, oldLinks = '0', '-', '' end
  local parts = { tostring(tonumber(oldSends) + tonumber(newSends)), newAttempt ~= '-' and newAttempt or oldAttempt }
  local links = 0
  for _, list in ipairs({ oldLinks, newLinks }) do
    for context in string.gmatch(list, '%S+') do
      if links >= maxLinks then break end
      links = links + 1
      parts[#parts + 1] = context
    end
  end
  return table.concat(parts, ' ')
end
