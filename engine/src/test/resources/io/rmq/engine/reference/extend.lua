-- The per-member extend.lua that scripts/extend.lua replaced, kept as the reference BatchScriptsEquivalenceIT
-- compares it with; KEYS, ARGV and replies as in the header of scripts/extend.lua.
if redis.replicate_commands then redis.replicate_commands() end

local prepareKey = KEYS[1]
local timeout    = tonumber(ARGV[1])

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local deadline = now + timeout

local args = { 'ZADD', prepareKey, 'XX', 'CH' }
for i = 2, #ARGV do
  args[#args + 1] = deadline
  args[#args + 1] = ARGV[i]
end
if #args == 4 then return 0 end
return redis.call(unpack(args))
