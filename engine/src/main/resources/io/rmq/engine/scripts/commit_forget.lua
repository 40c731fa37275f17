--[[
  commit_forget: what a plain commit (a ZREM of the members from the prepare queue, then committed.lua) could not
  do without its members, done with them when committed.lua asked for it. Each part follows commit.lua's rule for
  a member it committed, judged now: a member in neither the store queue nor the prepare queue was committed for
  good (one in the store queue was rolled back before the ZREM, or has a copy sent since, whose entries these are;
  one in the prepare queue has been popped again since).

  KEYS[1]  store queue     <prefix><topic>_<slot> (names the blocked hash)
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[4]  failures hash   failures{<prefix><topic>_<slot>}
  KEYS[5]  trace hash      trace{<prefix><topic>_<slot>}

  ARGV[1]  wake channel    as committed.lua's
  ARGV[2]  slot            the slot number, echoed in the wake notice
  ARGV[3]  what            committed.lua's reply: 1 blocked entries, 2 attempts and failures, 4 trace entries
  ARGV[4..] members        the members the ZREM was given

  Returns  the number of entries removed
]]
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local attemptsKey = KEYS[3]
local failuresKey = KEYS[4]
local traceKey    = KEYS[5]
local wakeChannel = ARGV[1]
local slot        = ARGV[2]
local what        = tonumber(ARGV[3])
-- #include lib/wake.lua: publishWake(channel, slot, delay)
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/blocked.lua: blockedKeyOf, noteBlocked, takeBlocked

local members = {}
for i = 4, #ARGV do members[i - 3] = ARGV[i] end
local removed = 0
local function has(bit) return math.floor(what / bit) % 2 == 1 end

if has(1) and takeBlocked(blockedKeyOf(storeKey), members) then
  removed = removed + 1
  publishWake(wakeChannel, slot, 0)
end
if (has(2) or has(4)) and #members > 0 then
  local pending = callAll('ZMSCORE', storeKey, members)
  local inFlight = callAll('ZMSCORE', prepareKey, members)
  local gone = {}
  for i, member in ipairs(members) do
    if not pending[i] and not inFlight[i] then gone[#gone + 1] = member end
  end
  if #gone > 0 then
    if has(2) then
      removed = removed + callAll('HDEL', attemptsKey, gone)
      callAll('HDEL', failuresKey, gone)
    end
    if has(4) then removed = removed + callAll('HDEL', traceKey, gone) end
  end
end
return removed
