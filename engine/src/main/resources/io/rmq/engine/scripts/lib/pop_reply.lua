-- The members a pop moves, as its reply carries them after the header (pop.lua documents the reply): one list per
-- field rather than the fields of each member in a row, so that a round's own tables (its members, their score runs,
-- the HMGET replies of the attempts and trace hashes) go into the reply as they are, with no table entry per member.
-- A pop of several rounds appends the later rounds' lists to the first one's (runs merged by lib/candidates.lua's
-- runAdd).
--
-- popped: { members, runs, failures, traces, keys, n } with n the members so far; failures, traces and keys may be
-- shorter than the members (an entry not there is none: no failure before, no trace entry, no key).

local function newPopped() return { members = {}, runs = {}, failures = {}, traces = {}, keys = {}, n = 0 } end

-- appends `part` (entries for the `count` members from index `before` + 1 on, nil or false where none) to `list`
local function appendAligned(list, before, part, count)
  if #part == 0 then return list end
  for i = #list + 1, before do list[i] = false end
  for i = 1, count do list[before + i] = part[i] or false end
  return list
end

-- a round's moving members (a list of count entries), their runs, and the optional lists of the same order
local function addPopped(popped, members, count, runs, failures, traces, keys)
  if popped.n == 0 then
    popped.members, popped.runs = members, runs
    popped.failures, popped.traces, popped.keys = failures or {}, traces or {}, keys or {}
  else
    local before = popped.n
    for i = 1, count do popped.members[before + i] = members[i] end
    for r = 1, #runs, 2 do runAdd(popped.runs, runs[r], runs[r + 1]) end
    popped.failures = appendAligned(popped.failures, before, failures or {}, count)
    popped.traces = appendAligned(popped.traces, before, traces or {}, count)
    popped.keys = appendAligned(popped.keys, before, keys or {}, count)
  end
  popped.n = popped.n + count
end

-- the reply: the header `result` (7 entries), then the lists
local function popReply(result, popped)
  if popped.n == 0 then return result end
  result[8] = popped.members
  result[9] = popped.runs
  result[10] = popped.failures
  result[11] = popped.traces
  result[12] = popped.keys
  return result
end
