--[[
  extend: pushes back the prepare deadline of members a live consumer still holds, so a slow but
  live consumer is not rolled back and duplicated. Members no longer in the prepare queue
  (committed, or rolled back by the sweeper) are not added back.

  KEYS[1]  prepare queue   prepare{<prefix><topic>_<slot>}

  ARGV[1]  prepare timeout ms; the new deadline is now + timeout
  ARGV[2..] members        the members to extend

  Returns  the number of members whose deadline was extended
]]
if redis.replicate_commands then redis.replicate_commands() end

local prepareKey = KEYS[1]
local timeout    = tonumber(ARGV[1])

-- #include lib/clock.lua: redisNow()
local now = redisNow()
local deadline = now + timeout

-- Lua's unpack is bounded: at most 500 members per ZADD
local extended = 0
for from = 2, #ARGV, 500 do
  local args = {}
  for i = from, math.min(from + 499, #ARGV) do
    args[#args + 1] = deadline
    args[#args + 1] = ARGV[i]
  end
  extended = extended + redis.call('ZADD', prepareKey, 'XX', 'CH', unpack(args))
end
return extended
