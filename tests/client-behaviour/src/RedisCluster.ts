/**
 * A real Redis Cluster for the tests of the Redis store on a cluster, in either Effect line: three
 * masters, each with a replica, all Debian's `redis-server` in cluster mode on free loopback ports
 * (each with its bus on a port of its own), without persistence, joined by `redis-cli --cluster
 * create`. A test kills a master (SIGKILL, as a crash) and waits for its replica to take its slots.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import * as fs from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { redisCommand } from "../../../scripts/redis-cli.mjs"
import { ensureRedisServer, freePort } from "../../../scripts/redis.mjs"

/** One node of the cluster. */
export interface ClusterNode {
  readonly port: number
  readonly process: ChildProcess
}

/** A node as `CLUSTER NODES` shows it. */
export interface NodeView {
  readonly id: string
  readonly port: number
  readonly flags: ReadonlyArray<string>
  /** The id of its master, for a replica. */
  readonly masterId: string | undefined
  /** The slot ranges it serves, for a master: `[from, to]`. */
  readonly slots: ReadonlyArray<readonly [number, number]>
}

/** A running cluster. */
export interface RedisCluster {
  readonly nodes: ReadonlyArray<ClusterNode>
  /** `redis+cluster://127.0.0.1:P1,…` with every node. */
  readonly url: string
  /** The slot of `key` (`CLUSTER KEYSLOT`). */
  readonly slotOf: (key: string) => Promise<number>
  /** The port of the master serving `slot`, as the live node at `viewFrom` (any live node) sees it. */
  readonly masterOf: (slot: number, viewFrom?: number) => Promise<number | undefined>
  /** Kills the node at `port` with SIGKILL; resolves once it is gone. */
  readonly kill: (port: number) => Promise<void>
  /**
   * Resolves with when (epoch ms) a live master other than `lost` serves `slot` and every live node
   * says `cluster_state:ok`; rejects after `withinMillis`.
   */
  readonly promoted: (slot: number, lost: number, withinMillis: number) => Promise<number>
  /** Stops every node (SIGKILL: nothing of it is kept) and removes their folder. */
  readonly stop: () => Promise<void>
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** `redis-cli` beside `redis-server` (Debian's package installs both), else the one on the PATH. */
const redisCli = () => {
  const beside = path.join(path.dirname(ensureRedisServer()), "redis-cli")
  return fs.existsSync(beside) ? beside : "redis-cli"
}

/** Distinct free loopback ports. */
const freePorts = async (count: number): Promise<Array<number>> => {
  const ports = new Set<number>()
  while (ports.size < count) ports.add(await freePort())
  return [...ports]
}

/** Starts one node in cluster mode; resolves once it accepts connections. */
const startNode = (binary: string, dir: string, port: number, busPort: number): Promise<ClusterNode> =>
  new Promise((resolve, reject) => {
    const child = spawn(binary, [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--cluster-enabled",
      "yes",
      "--cluster-port",
      String(busPort),
      // A master that does not answer for 1 s is failed over: a test sees it within seconds.
      "--cluster-node-timeout",
      "1000",
      // A replica may always take over, however long since it last heard from its master.
      "--cluster-replica-validity-factor",
      "0",
      "--cluster-config-file",
      `nodes-${port}.conf`,
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      "no"
    ], { stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const onData = (chunk: string) => {
      output += chunk
      if (output.includes("Ready to accept connections")) {
        child.stdout.off("data", onData)
        child.off("exit", onExit)
        // Drained from now on, so that a full pipe never stops the node.
        child.stdout.resume()
        resolve({ port, process: child })
      }
    }
    const onExit = (code: number | null) =>
      reject(new Error(`redis-server (cluster node) exited with ${code} before it was ready:\n${output}`))
    child.stdout.setEncoding("utf8").on("data", onData)
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.once("exit", onExit)
    child.once("error", reject)
  })

const killNode = (node: ClusterNode): Promise<void> =>
  new Promise((resolve) => {
    if (node.process.exitCode !== null || node.process.signalCode !== null) return resolve()
    node.process.once("exit", () => resolve())
    node.process.kill("SIGKILL")
  })

/** The nodes as the node at `port` sees them. */
export const clusterNodes = async (port: number): Promise<Array<NodeView>> => {
  const lines = await redisCommand(port, "CLUSTER", "NODES")
  return lines.map((line) => {
    const [id = "", address = "", flags = "", master = "-", , , , , ...slots] = line.split(" ")
    return {
      id,
      port: Number(address.split("@")[0]?.split(":").at(-1)),
      flags: flags.split(","),
      masterId: master === "-" ? undefined : master,
      slots: slots.filter((range) => !range.startsWith("[")).map((range) => {
        const [from = "0", to = from] = range.split("-")
        return [Number(from), Number(to)] as const
      })
    }
  })
}

const stateOk = async (port: number) =>
  (await redisCommand(port, "CLUSTER", "INFO")).some((line) => line.trim() === "cluster_state:ok")

/** Waits until `check` holds, polling every `everyMillis`; rejects with `what` after `withinMillis`. */
const until = async (check: () => Promise<boolean>, withinMillis: number, what: string, everyMillis = 100) => {
  const end = Date.now() + withinMillis
  for (;;) {
    if (await check().catch(() => false)) return
    if (Date.now() > end) throw new Error(`the Redis cluster: ${what} within ${withinMillis} ms`)
    await sleep(everyMillis)
  }
}

/**
 * Starts three masters and three replicas on free loopback ports and joins them into one cluster;
 * resolves once every node says `cluster_state:ok` and every replica has its master's data.
 */
export const start = async (): Promise<RedisCluster> => {
  const binary = ensureRedisServer()
  const dir = await mkdtemp(path.join(os.tmpdir(), "community-api-cluster-"))
  const ports = await freePorts(12)
  const nodes: Array<ClusterNode> = []
  const stop = async () => {
    await Promise.all(nodes.map(killNode))
    await rm(dir, { recursive: true, force: true })
  }
  try {
    nodes.push(
      ...await Promise.all(Array.from({ length: 6 }, (_, i) => startNode(binary, dir, ports[i]!, ports[i + 6]!)))
    )
    await new Promise<void>((resolve, reject) =>
      execFile(
        redisCli(),
        [
          "--cluster",
          "create",
          ...nodes.map((node) => `127.0.0.1:${node.port}`),
          "--cluster-replicas",
          "1",
          "--cluster-yes"
        ],
        { encoding: "utf8", timeout: 60_000 },
        (error, stdout, stderr) =>
          error === null
            ? resolve()
            : reject(new Error(`redis-cli --cluster create: ${stderr || stdout || error.message}`))
      )
    )
    const live = () => nodes.filter((node) => node.process.exitCode === null && node.process.signalCode === null)
    await until(
      async () => (await Promise.all(nodes.map((node) => stateOk(node.port)))).every(Boolean),
      30_000,
      "every node says cluster_state:ok"
    )
    await until(
      async () => {
        const views = await clusterNodes(nodes[0]!.port)
        const replicas = views.filter((view) => view.flags.includes("slave"))
        if (replicas.length !== 3 || views.filter((view) => view.flags.includes("master")).length !== 3) return false
        const links = await Promise.all(replicas.map((replica) => redisCommand(replica.port, "INFO", "replication")))
        return links.every((info) => info.some((line) => line.trim() === "master_link_status:up"))
      },
      30_000,
      "three masters, each with a replica in sync"
    )
    const masterOf = async (slot: number, viewFrom = live()[0]?.port ?? nodes[0]!.port) =>
      (await clusterNodes(viewFrom)).find((view) =>
        view.flags.includes("master") && !view.flags.includes("fail") &&
        view.slots.some(([from, to]) => slot >= from && slot <= to)
      )?.port
    return {
      nodes,
      url: `redis+cluster://${nodes.map((node) => `127.0.0.1:${node.port}`).join(",")}`,
      slotOf: async (key) => Number((await redisCommand(nodes[0]!.port, "CLUSTER", "KEYSLOT", key))[0]),
      masterOf,
      kill: (port) => {
        const node = nodes.find((node) => node.port === port)
        return node === undefined ? Promise.reject(new Error(`no node on ${port}`)) : killNode(node)
      },
      promoted: async (slot, lost, withinMillis) => {
        await until(
          async () => {
            const ports = live().map((node) => node.port)
            const masters = await Promise.all(ports.map((port) => masterOf(slot, port)))
            const oks = await Promise.all(ports.map(stateOk))
            return masters.every((master) => master !== undefined && master !== lost) && oks.every(Boolean)
          },
          withinMillis,
          `a replica serves slot ${slot} in place of the master on ${lost}`,
          // Ten redis-cli processes a look: not so often that they take the cores from the clients.
          250
        )
        return Date.now()
      },
      stop
    }
  } catch (error) {
    await stop()
    throw error
  }
}
